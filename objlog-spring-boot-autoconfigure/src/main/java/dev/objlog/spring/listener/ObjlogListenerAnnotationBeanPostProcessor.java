package dev.objlog.spring.listener;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Finds {@link ObjlogListener} methods (also repeated, and through meta-annotations) on every bean,
 * resolves their placeholders into {@link ObjlogListenerEndpoint}s and, once all singletons exist,
 * registers them with the {@link ObjlogListenerEndpointRegistry} through their container factory.
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
      ObjlogListener a = f.annotation();
      ObjlogListenerEndpoint endpoint = new ObjlogListenerEndpoint(resolve(a.id()), resolve(a.stream()), f.bean(), f.method());
      String group = resolve(a.group());
      endpoint.setGroup(group.isEmpty() ? null : group);
      endpoint.setPartitions(resolve(a.partitions()));
      String start = resolve(a.startPosition());
      if (!start.isEmpty()) {
        endpoint.setStartPosition(StartPosition.parse(start));
      }
      String mode = resolve(a.checkpointMode());
      if (!mode.isEmpty()) {
        endpoint.setCheckpointMode(CheckpointMode.valueOf(mode.trim().toUpperCase(Locale.ROOT)));
      }
      String ackCount = resolve(a.ackCount());
      if (!ackCount.isEmpty()) {
        endpoint.setAckCount(Integer.parseInt(ackCount.trim()));
      }
      String ackTime = resolve(a.ackTime());
      if (!ackTime.isEmpty()) {
        endpoint.setAckTime(DurationStyle.detectAndParse(ackTime.trim()));
      }
      String concurrency = resolve(a.concurrency());
      if (!concurrency.isEmpty()) {
        endpoint.setConcurrency(Integer.parseInt(concurrency.trim()));
      }
      endpoint.setBatch(Boolean.parseBoolean(resolve(a.batch()).trim()));
      endpoint.setAutoStartup(Boolean.parseBoolean(resolve(a.autoStartup()).trim()));
      String errorHandler = resolve(a.errorHandler());
      if (!errorHandler.isEmpty()) {
        endpoint.setErrorHandler(factory.getBean(errorHandler, ListenerErrorHandler.class));
      }
      String transactionManager = resolve(a.transactionManager());
      if (!transactionManager.isEmpty()) {
        endpoint.setTransactionManager(factory.getBean(transactionManager, PlatformTransactionManager.class));
      }
      String factoryName = resolve(a.containerFactory());
      ObjlogListenerContainerFactory containerFactory = factory.getBean(
          factoryName.isEmpty() ? DEFAULT_FACTORY_BEAN_NAME : factoryName, ObjlogListenerContainerFactory.class);
      registry.registerListenerContainer(endpoint, containerFactory, false);
    }
  }

  private String resolve(String value) {
    ConfigurableBeanFactory factory = beanFactory;
    if (factory == null || value.isEmpty()) {
      return value;
    }
    String resolved = factory.resolveEmbeddedValue(value);
    return resolved == null ? "" : resolved;
  }
}
