package dev.objlog.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Imports objlog's auto-configurations (store, streams, template, checkpoints, listeners,
 * lifecycle, and the actuator parts when the actuator is configured), Jackson's when it is on the
 * classpath (JSON values), and the {@link ObjlogTester}. {@link ObjlogTest} uses it; a test slice
 * of another kind can add it to get objlog too.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureObjlog {}
