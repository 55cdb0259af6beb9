package dev.objlog.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.autoconfigure.OverrideAutoConfiguration;
import org.springframework.boot.test.context.filter.annotation.TypeExcludeFilters;
import org.springframework.context.annotation.ComponentScan.Filter;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.BootstrapWith;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * A test slice for the objlog part of an application: starts only objlog's auto-configurations
 * (and Jackson's, for JSON values), on the memory store as {@link InMemoryObjlog} does, with
 * the beans of the application that objlog uses: components with {@code @ObjlogListener}
 * methods, and {@code RecordValueConverter}, {@code RecordPayloadConverter}, {@code
 * ListenerErrorHandler}, {@code ListenerRecoverer} and {@code ObjlogListenerConfigurer} beans. Other components (controllers,
 * repositories, services, and {@code @Configuration} classes the scan finds) are left out; add one
 * with {@code @Import}, a nested {@code @TestConfiguration} or {@link #includeFilters()}.
 *
 * <p>The context has an {@code ObjlogTemplate}, {@code ObjlogStreams}, the listener containers and
 * an {@link ObjlogTester}. Use {@code @SpringBootTest} with {@link InMemoryObjlog} to test the
 * whole application instead.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@BootstrapWith(ObjlogTestContextBootstrapper.class)
@ExtendWith(SpringExtension.class)
@OverrideAutoConfiguration(enabled = false)
@TypeExcludeFilters(ObjlogTypeExcludeFilter.class)
@InMemoryObjlog
@AutoConfigureObjlog
@ImportAutoConfiguration
public @interface ObjlogTest {

  /** Properties in {@code key=value} form added to the environment before the context starts. */
  String[] properties() default {};

  /** Whether the slice's default includes apply; false: only {@link #includeFilters()} add beans. */
  boolean useDefaultFilters() default true;

  /** More components to add to the slice. */
  Filter[] includeFilters() default {};

  /** Components to leave out of the slice. */
  Filter[] excludeFilters() default {};

  /** Auto-configurations to leave out. */
  @AliasFor(annotation = ImportAutoConfiguration.class, attribute = "exclude")
  Class<?>[] excludeAutoConfiguration() default {};
}
