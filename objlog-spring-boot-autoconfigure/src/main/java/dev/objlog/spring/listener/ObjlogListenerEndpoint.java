package dev.objlog.spring.listener;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * One listener as the container factory needs it: the method to call and its settings, with
 * placeholders already resolved. {@link ObjlogListenerAnnotationBeanPostProcessor} builds one per
 * {@link ObjlogListener}; applications may build and register their own with {@link
 * ObjlogListenerEndpointRegistry#registerListenerContainer}. Unset settings take the factory's
 * defaults ({@code objlog.listener.*}).
 *
 * <p>Thread-safety: configure it on one thread before registering it; not safe for concurrent
 * modification.
 */
public final class ObjlogListenerEndpoint {
  private final String id;
  private final String stream;
  private final Object bean;
  private final Method method;
  private @Nullable String group;
  private String partitions = "*";
  private @Nullable StartPosition startPosition;
  private @Nullable CheckpointMode checkpointMode;
  private @Nullable Integer ackCount;
  private @Nullable Duration ackTime;
  private boolean batch;
  private @Nullable Integer concurrency;
  private @Nullable ListenerErrorHandler errorHandler;
  private @Nullable PlatformTransactionManager transactionManager;
  private boolean autoStartup = true;

  public ObjlogListenerEndpoint(String id, String stream, Object bean, Method method) {
    if (id.isBlank()) {
      throw new IllegalArgumentException("a listener id must not be blank");
    }
    if (stream.isBlank()) {
      throw new IllegalArgumentException("listener " + id + ": the stream must not be blank");
    }
    this.id = id;
    this.stream = stream;
    this.bean = Objects.requireNonNull(bean, "bean");
    this.method = Objects.requireNonNull(method, "method");
  }

  public String getId() {
    return id;
  }

  /** The group if set, otherwise the id: the owner of the checkpoints. */
  public String getCheckpointOwner() {
    return group != null && !group.isEmpty() ? group : id;
  }

  public String getStream() {
    return stream;
  }

  public Object getBean() {
    return bean;
  }

  public Method getMethod() {
    return method;
  }

  public @Nullable String getGroup() {
    return group;
  }

  public void setGroup(@Nullable String group) {
    this.group = group;
  }

  public String getPartitions() {
    return partitions;
  }

  public void setPartitions(String partitions) {
    this.partitions = partitions;
  }

  public @Nullable StartPosition getStartPosition() {
    return startPosition;
  }

  public void setStartPosition(@Nullable StartPosition startPosition) {
    this.startPosition = startPosition;
  }

  public @Nullable CheckpointMode getCheckpointMode() {
    return checkpointMode;
  }

  public void setCheckpointMode(@Nullable CheckpointMode checkpointMode) {
    this.checkpointMode = checkpointMode;
  }

  public @Nullable Integer getAckCount() {
    return ackCount;
  }

  public void setAckCount(@Nullable Integer ackCount) {
    this.ackCount = ackCount;
  }

  public @Nullable Duration getAckTime() {
    return ackTime;
  }

  public void setAckTime(@Nullable Duration ackTime) {
    this.ackTime = ackTime;
  }

  /** Lanes the partitions are divided into (at most this many invocations at once); null: one per partition. */
  public @Nullable Integer getConcurrency() {
    return concurrency;
  }

  /**
   * @throws IllegalArgumentException when not positive
   */
  public void setConcurrency(@Nullable Integer concurrency) {
    if (concurrency != null && concurrency < 1) {
      throw new IllegalArgumentException("listener " + id + ": concurrency must be at least 1, not " + concurrency);
    }
    this.concurrency = concurrency;
  }

  public boolean isBatch() {
    return batch;
  }

  public void setBatch(boolean batch) {
    this.batch = batch;
  }

  /** RECORD mode: each invocation and its checkpoint save run in a transaction of this manager. */
  public @Nullable PlatformTransactionManager getTransactionManager() {
    return transactionManager;
  }

  /** Null: the factory's (none by default). See {@link ObjlogListener#transactionManager()}. */
  public void setTransactionManager(@Nullable PlatformTransactionManager transactionManager) {
    this.transactionManager = transactionManager;
  }

  public @Nullable ListenerErrorHandler getErrorHandler() {
    return errorHandler;
  }

  public void setErrorHandler(@Nullable ListenerErrorHandler errorHandler) {
    this.errorHandler = errorHandler;
  }

  public boolean isAutoStartup() {
    return autoStartup;
  }

  public void setAutoStartup(boolean autoStartup) {
    this.autoStartup = autoStartup;
  }

  @Override
  public String toString() {
    return "ObjlogListenerEndpoint[" + id + " on " + stream + " -> " + method.getDeclaringClass().getSimpleName()
        + "." + method.getName() + "]";
  }
}
