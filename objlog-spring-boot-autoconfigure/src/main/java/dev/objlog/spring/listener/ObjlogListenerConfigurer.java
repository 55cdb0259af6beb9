package dev.objlog.spring.listener;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.validation.Validator;

/**
 * Implemented by beans that shape how the auto-configured container factory resolves listener
 * method arguments, as spring-kafka's {@code KafkaListenerConfigurer} does: custom argument
 * resolvers (tried after objlog's own and before the payload) and the validator of {@code @Valid}
 * payloads. Every such bean is called once, in {@code @Order}, when the factory is created.
 *
 * <p>Thread-safety: called on one thread during startup.
 */
public interface ObjlogListenerConfigurer {

  /** Adds resolvers; they see the {@link RecordMessage} a listener is invoked with. */
  default void configureArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {}

  /**
   * The validator of payload parameters annotated {@code @Valid} or {@code @Validated}; null (the
   * default): the application's single (or primary) {@code Validator} bean, if any. A later
   * configurer's non-null validator wins.
   */
  default @Nullable Validator getValidator() {
    return null;
  }
}
