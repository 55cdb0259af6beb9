package dev.objlog.spring.listener;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.Scope;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Reads the attributes of one {@link ObjlogListener} into an endpoint: each resolves {@code ${...}}
 * placeholders, then {@code #{...}} expressions in which {@code __listener} is the bean that declares
 * the method. Every attribute is checked strictly: a value that does not parse as its type (a
 * boolean other than {@code true} or {@code false}, a number, a duration, a checkpoint mode, a start
 * position, a bean name) throws an {@link IllegalArgumentException} naming the listener and the
 * attribute, so startup fails instead of running with a misread setting.
 *
 * <p>Thread-safety: one instance per listener, used on the startup thread.
 */
final class ListenerAttributes {
  /** The name a listener's own bean has in its attributes' expressions. */
  static final String LISTENER_VARIABLE = "__listener";

  private final ConfigurableBeanFactory factory;
  private final Object bean;
  private final Method method;
  private final @Nullable BeanExpressionContext expressionContext;
  /** The resolved id once known; before that, the method names the listener in messages. */
  private String listener;

  ListenerAttributes(ConfigurableBeanFactory factory, Object bean, Method method) {
    this.factory = factory;
    this.bean = bean;
    this.method = method;
    this.expressionContext = factory.getBeanExpressionResolver() == null ? null
        : new BeanExpressionContext(factory, new ListenerScope(bean));
    this.listener = "on " + method.getDeclaringClass().getName() + "." + method.getName();
  }

  ObjlogListenerEndpoint endpoint(ObjlogListener a) {
    String id = string("id", a.id());
    if (!id.isBlank()) {
      listener = "\"" + id + "\"";
    }
    String stream = string("stream", a.stream());
    ObjlogListenerEndpoint endpoint = parse("id", a.id(), () -> new ObjlogListenerEndpoint(id, stream, bean, method));
    String group = string("group", a.group());
    endpoint.setGroup(group.isEmpty() ? null : group);
    endpoint.setPartitions(string("partitions", a.partitions()));
    String start = string("startPosition", a.startPosition());
    if (!start.isEmpty()) {
      endpoint.setStartPosition(parse("startPosition", a.startPosition(), () -> StartPosition.parse(start)));
    }
    CheckpointMode mode = checkpointMode(a.checkpointMode());
    if (mode != null) {
      endpoint.setCheckpointMode(mode);
    }
    Integer ackCount = integer("ackCount", a.ackCount());
    if (ackCount != null) {
      if (ackCount < 1) {
        throw invalid("ackCount", a.ackCount(), "ackCount must be at least 1, not " + ackCount);
      }
      endpoint.setAckCount(ackCount);
    }
    Duration ackTime = duration("ackTime", a.ackTime());
    if (ackTime != null) {
      endpoint.setAckTime(ackTime);
    }
    Integer concurrency = integer("concurrency", a.concurrency());
    if (concurrency != null) {
      if (concurrency < 1) {
        throw invalid("concurrency", a.concurrency(), "concurrency must be at least 1, not " + concurrency);
      }
      endpoint.setConcurrency(concurrency);
    }
    endpoint.setBatch(bool("batch", a.batch(), false));
    endpoint.setAutoStartup(bool("autoStartup", a.autoStartup(), true));
    ListenerErrorHandler errorHandler = bean("errorHandler", a.errorHandler(), ListenerErrorHandler.class);
    if (errorHandler != null) {
      endpoint.setErrorHandler(errorHandler);
    }
    PlatformTransactionManager manager = bean("transactionManager", a.transactionManager(),
        PlatformTransactionManager.class);
    if (manager != null) {
      endpoint.setTransactionManager(manager);
    }
    return endpoint;
  }

  ObjlogListenerContainerFactory containerFactory(ObjlogListener a) {
    ObjlogListenerContainerFactory named = bean("containerFactory", a.containerFactory(),
        ObjlogListenerContainerFactory.class);
    if (named != null) {
      return named;
    }
    return factory.getBean(ObjlogListenerAnnotationBeanPostProcessor.DEFAULT_FACTORY_BEAN_NAME,
        ObjlogListenerContainerFactory.class);
  }

  /** Placeholders, then an expression; null when an expression yields null. */
  private @Nullable Object evaluate(String attribute, String raw) {
    if (raw.isEmpty()) {
      return raw;
    }
    String resolved;
    try {
      resolved = factory.resolveEmbeddedValue(raw);
    } catch (RuntimeException e) {
      throw invalid(attribute, raw, e.getMessage(), e);
    }
    if (resolved == null) {
      return "";
    }
    BeanExpressionResolver resolver = factory.getBeanExpressionResolver();
    if (resolver == null || expressionContext == null || !resolved.contains("#{")) {
      return resolved;
    }
    try {
      return resolver.evaluate(resolved, expressionContext);
    } catch (BeansException | org.springframework.expression.ExpressionException e) {
      throw invalid(attribute, raw, e.getMessage(), e);
    }
  }

  private String string(String attribute, String raw) {
    Object value = evaluate(attribute, raw);
    if (value == null) {
      return "";
    }
    if (value instanceof String || value instanceof Number || value instanceof Character
        || value instanceof Boolean || value instanceof Enum<?>) {
      return value.toString().trim();
    }
    throw invalid(attribute, raw, "expected text, but the expression gave a " + value.getClass().getName());
  }

  private boolean bool(String attribute, String raw, boolean whenEmpty) {
    Object value = evaluate(attribute, raw);
    if (value instanceof Boolean b) {
      return b;
    }
    String text = value == null ? "" : value.toString().trim();
    if (text.isEmpty()) {
      return whenEmpty;
    }
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw invalid(attribute, raw, "\"" + text + "\" is not a boolean: use true or false");
  }

  private @Nullable Integer integer(String attribute, String raw) {
    Object value = evaluate(attribute, raw);
    if (value instanceof Integer i) {
      return i;
    }
    if (value instanceof Number n) {
      if (n.doubleValue() != n.intValue()) {
        throw invalid(attribute, raw, n + " is not an int");
      }
      return n.intValue();
    }
    String text = value == null ? "" : value.toString().trim();
    if (text.isEmpty()) {
      return null;
    }
    try {
      return Integer.valueOf(text);
    } catch (NumberFormatException e) {
      throw invalid(attribute, raw, "\"" + text + "\" is not an int", e);
    }
  }

  private @Nullable Duration duration(String attribute, String raw) {
    Object value = evaluate(attribute, raw);
    if (value instanceof Duration d) {
      return checkNotNegative(attribute, raw, d);
    }
    String text = value == null ? "" : value.toString().trim();
    if (text.isEmpty()) {
      return null;
    }
    Duration d = parse(attribute, raw, () -> DurationStyle.detectAndParse(text));
    return checkNotNegative(attribute, raw, d);
  }

  private Duration checkNotNegative(String attribute, String raw, Duration d) {
    if (d.isNegative()) {
      throw invalid(attribute, raw, "must not be negative, not " + d);
    }
    return d;
  }

  private @Nullable CheckpointMode checkpointMode(String raw) {
    Object value = evaluate("checkpointMode", raw);
    if (value instanceof CheckpointMode m) {
      return m;
    }
    String text = value == null ? "" : value.toString().trim();
    if (text.isEmpty()) {
      return null;
    }
    try {
      return CheckpointMode.valueOf(text.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw invalid("checkpointMode", raw, "\"" + text + "\" is not a checkpoint mode: use one of "
          + java.util.Arrays.toString(CheckpointMode.values()), e);
    }
  }

  /** A bean name, or an expression giving the bean itself; null when empty. */
  private <T> @Nullable T bean(String attribute, String raw, Class<T> type) {
    Object value = evaluate(attribute, raw);
    if (type.isInstance(value)) {
      return type.cast(value);
    }
    if (!(value instanceof String name)) {
      if (value == null) {
        return null;
      }
      throw invalid(attribute, raw, "expected a bean name or a " + type.getSimpleName() + ", but got a "
          + value.getClass().getName());
    }
    if (name.isBlank()) {
      return null;
    }
    try {
      return factory.getBean(name.trim(), type);
    } catch (BeansException e) {
      throw invalid(attribute, raw, "no usable " + type.getSimpleName() + " bean named \"" + name.trim() + "\": "
          + e.getMessage(), e);
    }
  }

  private <T> T parse(String attribute, String raw, java.util.function.Supplier<T> parser) {
    try {
      return parser.get();
    } catch (RuntimeException e) {
      throw invalid(attribute, raw, e.getMessage(), e);
    }
  }

  private IllegalArgumentException invalid(String attribute, String raw, @Nullable String why) {
    return invalid(attribute, raw, why, null);
  }

  private IllegalArgumentException invalid(String attribute, String raw, @Nullable String why,
      @Nullable Throwable cause) {
    return new IllegalArgumentException("@ObjlogListener " + listener + ": attribute " + attribute + " = \""
        + raw + "\" is invalid: " + why, cause);
  }

  /** Resolves {@code __listener} in expressions to the listener's bean; nothing else. */
  private record ListenerScope(Object bean) implements Scope {
    @Override
    public Object get(String name, ObjectFactory<?> objectFactory) {
      return objectFactory.getObject();
    }

    @Override
    public @Nullable Object remove(String name) {
      return null;
    }

    @Override
    public void registerDestructionCallback(String name, Runnable callback) {
    }

    @Override
    public @Nullable Object resolveContextualObject(String key) {
      return LISTENER_VARIABLE.equals(key) ? bean : null;
    }

    @Override
    public @Nullable String getConversationId() {
      return null;
    }
  }
}
