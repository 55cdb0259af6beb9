package dev.objlog.spring.test;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Puts the properties of {@link InMemoryObjlog} first in the environment of the test contexts
 * whose class (or an enclosing or super class, or an annotation on it such as {@link ObjlogTest})
 * carries it. Registered in {@code META-INF/spring.factories}.
 */
class InMemoryObjlogContextCustomizerFactory implements ContextCustomizerFactory {

  @Override
  public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
      List<ContextConfigurationAttributes> configAttributes) {
    boolean annotated = TestContextAnnotationUtils.findMergedAnnotation(testClass, InMemoryObjlog.class) != null;
    return annotated ? new InMemoryObjlogContextCustomizer() : null;
  }

  /** Equal to each other: test classes with the same configuration still share one cached context. */
  static final class InMemoryObjlogContextCustomizer implements ContextCustomizer {
    static final String PROPERTY_SOURCE_NAME = "objlogInMemory";

    /** What {@link InMemoryObjlog} sets, ahead of every other property source. */
    static final Map<String, Object> PROPERTIES = Map.of(
        "objlog.store.type", "memory",
        "objlog.checkpoint.store", "memory");

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
      context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, PROPERTIES));
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof InMemoryObjlogContextCustomizer;
    }

    @Override
    public int hashCode() {
      return InMemoryObjlogContextCustomizer.class.hashCode();
    }
  }
}
