package dev.objlog.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * Adds an {@link ObjlogTester} bean to a test's application context, on whatever store the
 * context uses. {@link InMemoryObjlog} and {@link ObjlogTest} imply it; use it alone for a test
 * that keeps the application's store (a filesystem directory, a MinIO container).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureObjlogTester {}
