package org.springframework.boot.testcontainers.service.connection;

import java.util.function.Supplier;
import org.springframework.core.annotation.MergedAnnotations;
import org.testcontainers.containers.Container;

/**
 * Builds the {@link ContainerConnectionSource} that Boot builds for a {@code @ServiceConnection}
 * field, so that a connection details factory can be tested without a Docker engine. It lives in
 * Boot's package because the source's constructor is package-private.
 */
public final class TestContainerConnectionSources {
  @ServiceConnection private static final Object ANNOTATED = new Object();

  private TestContainerConnectionSources() {}

  public static <C extends Container<?>> ContainerConnectionSource<C> of(
      Class<C> containerType, String imageName, Supplier<C> container) {
    ServiceConnection annotation;
    try {
      annotation = TestContainerConnectionSources.class.getDeclaredField("ANNOTATED").getAnnotation(ServiceConnection.class);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(e);
    }
    return new ContainerConnectionSource<>(
        "test", null, containerType, imageName, annotation, container, null, MergedAnnotations.of(java.util.List.of()));
  }
}
