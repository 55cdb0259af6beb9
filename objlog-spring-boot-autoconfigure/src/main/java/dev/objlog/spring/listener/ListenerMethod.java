package dev.objlog.spring.listener;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.support.HeadersMethodArgumentResolver;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.messaging.handler.invocation.InvocableHandlerMethod;

/**
 * A listener method as spring-messaging invokes it, with the checks that make an unsupported
 * signature fail when the container is built rather than when the first record arrives: at most
 * one payload parameter; in batch mode the payload a {@code List<T>} (or {@code List<ReadRecord>})
 * and no {@code @Header}, {@code @Headers} or single {@code ReadRecord}.
 *
 * <p>Thread-safety: safe for concurrent use (spring-messaging's handler method holds no per-call
 * state).
 */
final class ListenerMethod {
  private final InvocableHandlerMethod handler;
  private final Method method;
  private final boolean batch;
  private final boolean acceptsAcknowledgment;

  /**
   * @throws IllegalArgumentException when a parameter cannot be resolved
   */
  ListenerMethod(Object bean, Method method, boolean batch, ObjlogMessageHandlerMethodFactory factory) {
    this.method = Objects.requireNonNull(method, "method");
    this.batch = batch;
    this.handler = factory.createInvocableHandlerMethod(bean, method);
    List<HandlerMethodArgumentResolver> resolvers = factory.argumentResolvers();
    boolean ack = false;
    int payloads = 0;
    DefaultParameterNameDiscoverer names = new DefaultParameterNameDiscoverer();
    for (MethodParameter parameter : handler.getMethodParameters()) {
      parameter.initParameterNameDiscovery(names);
      HandlerMethodArgumentResolver resolver = resolverOf(resolvers, parameter);
      Header header = parameter.getParameterAnnotation(Header.class);
      if (header != null && header.name().isEmpty() && header.value().isEmpty()) {
        throw unsupported(parameter, "@Header needs a name");
      }
      if (resolver instanceof RecordArgumentResolvers.AcknowledgmentResolver) {
        ack = true;
      } else if (batch && resolver instanceof RecordArgumentResolvers.RecordHeaderResolver) {
        throw unsupported(parameter, "@Header is not supported in batch mode; take List<ReadRecord> instead");
      } else if (batch && resolver instanceof HeadersMethodArgumentResolver) {
        throw unsupported(parameter, "@Headers is not supported in batch mode");
      } else if (batch && resolver instanceof RecordArgumentResolvers.ReadRecordResolver) {
        throw unsupported(parameter, "batch listeners take a List of payloads or of ReadRecord");
      } else if (resolver instanceof RecordArgumentResolvers.RecordPayloadResolver) {
        payloads++;
        if (batch && parameter.getParameterType() != List.class) {
          throw unsupported(parameter, "batch listeners take a List of payloads or of ReadRecord");
        }
        if (batch && RecordArgumentResolvers.RecordPayloadResolver.elementType(parameter) == null) {
          throw unsupported(parameter, "declare the List's element type");
        }
      }
    }
    if (payloads > 1) {
      throw new IllegalArgumentException("listener method " + method + " has more than one payload parameter");
    }
    this.acceptsAcknowledgment = ack;
  }

  private static @Nullable HandlerMethodArgumentResolver resolverOf(List<HandlerMethodArgumentResolver> resolvers,
      MethodParameter parameter) {
    for (HandlerMethodArgumentResolver r : resolvers) {
      if (r.supportsParameter(parameter)) {
        return r;
      }
    }
    return null;
  }

  private IllegalArgumentException unsupported(MethodParameter parameter, String why) {
    String name = parameter.getParameterName() != null ? parameter.getParameterName()
        : "#" + parameter.getParameterIndex();
    return new IllegalArgumentException("listener method " + method + ", parameter " + name + ": " + why);
  }

  boolean acceptsAcknowledgment() {
    return acceptsAcknowledgment;
  }

  boolean isBatch() {
    return batch;
  }

  Method method() {
    return method;
  }

  /**
   * Resolves the arguments and invokes the method.
   *
   * @throws Exception what the method threw (unwrapped), or a resolution failure ({@code
   *     MessageConversionException}, {@code MethodArgumentResolutionException} such as {@code
   *     MethodArgumentNotValidException})
   */
  void invoke(RecordMessage message) throws Exception {
    handler.invoke(message);
  }

  @Override
  public String toString() {
    return method.toGenericString();
  }
}
