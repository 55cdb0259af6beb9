package dev.objlog.spring.aot;

import dev.objlog.read.ReadRecord;
import dev.objlog.spring.listener.Acknowledgment;
import dev.objlog.spring.listener.ObjlogListener;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Headers;
import org.springframework.util.ReflectionUtils;

/**
 * For every bean with {@link ObjlogListener} methods (also repeated, and through
 * meta-annotations, as the annotation processor finds them at runtime), registers the methods for
 * reflective invocation (the container calls them through {@link Method#invoke}) and the types of
 * their payload parameters for JSON binding (Jackson reads record values into them, and for a
 * {@code List<T>} of a batch listener, into {@code T}). Arguments the container supplies itself
 * ({@code @Header}, {@code @Headers}, {@link Acknowledgment}, {@link ReadRecord}) get no binding
 * hints. Registered in {@code META-INF/spring/aot.factories}.
 *
 * <p>Thread-safety: stateless; runs at build time.
 */
public final class ObjlogListenerBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

  @Override
  public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
    Class<?> beanType = registeredBean.getBeanType().toClass();
    Set<Method> listeners = MethodIntrospector.selectMethods(beanType, (ReflectionUtils.MethodFilter)
        method -> !AnnotatedElementUtils.findMergedRepeatableAnnotations(method, ObjlogListener.class).isEmpty());
    if (listeners.isEmpty()) {
      return null;
    }
    List<Method> methods = List.copyOf(listeners);
    return (generationContext, code) -> {
      ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
      BindingReflectionHintsRegistrar binding = new BindingReflectionHintsRegistrar();
      for (Method method : methods) {
        reflection.registerMethod(method, ExecutableMode.INVOKE);
        for (Parameter parameter : method.getParameters()) {
          if (isPayload(parameter)) {
            binding.registerReflectionHints(reflection, parameter.getParameterizedType());
          }
        }
      }
    };
  }

  private static boolean isPayload(Parameter parameter) {
    Type type = parameter.getParameterizedType();
    if (type == Acknowledgment.class || type == ReadRecord.class
        || parameter.isAnnotationPresent(Header.class) || parameter.isAnnotationPresent(Headers.class)) {
      return false;
    }
    return !(type instanceof ParameterizedType list && list.getRawType() == List.class
        && list.getActualTypeArguments()[0] == ReadRecord.class);
  }
}
