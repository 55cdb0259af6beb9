package dev.objlog.spring.listener;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * Finds {@link ObjlogListener} methods (also repeated, and through meta-annotations) on every bean,
 * and, once all singletons exist, resolves their attributes ({@code ${...}} placeholders, then
 * {@code #{...}} expressions with {@code __listener} naming the bean) into {@link
 * ObjlogListenerEndpoint}s and registers them with the {@link ObjlogListenerEndpointRegistry}
 * through their container factory. An attribute that does not parse fails startup with an {@link
 * IllegalArgumentException} naming the listener and the attribute.
 *
 * <p>Thread-safety: used by the container during startup.
 */
public class ObjlogListenerAnnotationBeanPostProcessor
    implements BeanPostProcessor, BeanFactoryAware, SmartInitializingSingleton {

  /** Bean name of the default container factory. */
  public static final String DEFAULT_FACTORY_BEAN_NAME = "objlogListenerContainerFactory";

  private record Found(Object bean, Method method, ObjlogListener annotation) {}

  private @Nullable ConfigurableBeanFactory beanFactory;
  private final List<Found> found = new ArrayList<>();

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beanFactory = (ConfigurableBeanFactory) beanFactory;
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
    Class<?> type = AopUtils.getTargetClass(bean);
    Map<Method, Set<ObjlogListener>> methods = MethodIntrospector.selectMethods(type,
        (MethodIntrospector.MetadataLookup<Set<ObjlogListener>>) m -> {
          Set<ObjlogListener> listeners = AnnotatedElementUtils.findMergedRepeatableAnnotations(m, ObjlogListener.class);
          return listeners.isEmpty() ? null : listeners;
        });
    methods.forEach((method, listeners) -> {
      Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
      for (ObjlogListener listener : listeners) {
        synchronized (found) {
          found.add(new Found(bean, invocable, listener));
        }
      }
    });
    return bean;
  }

  @Override
  public void afterSingletonsInstantiated() {
    ConfigurableBeanFactory factory = beanFactory;
    if (factory == null) {
      return;
    }
    List<Found> all;
    synchronized (found) {
      all = List.copyOf(found);
      found.clear();
    }
    if (all.isEmpty()) {
      return;
    }
    ObjlogListenerEndpointRegistry registry = factory.getBean(ObjlogListenerEndpointRegistry.class);
    for (Found f : all) {
      ListenerAttributes attributes = new ListenerAttributes(factory, f.bean(), f.method());
      ObjlogListenerEndpoint endpoint = attributes.endpoint(f.annotation());
      registry.registerListenerContainer(endpoint, attributes.containerFactory(f.annotation()), false);
    }
  }
}
