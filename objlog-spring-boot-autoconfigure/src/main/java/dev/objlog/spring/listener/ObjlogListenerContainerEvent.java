package dev.objlog.spring.listener;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEvent;

/**
 * What a listener container publishes through the application context: it {@link Started
 * started}, {@link Stopped stopped}, a partition went {@link Idle idle}, partitions were {@link
 * PartitionsAssigned assigned} to or {@link PartitionsRevoked revoked} from it, or a partition
 * {@link PartitionFailed failed}. The source is the {@link ObjlogListenerContainer}. Partition events
 * are published on the partition's (or the group's lease) thread; an event listener that throws
 * is logged and never stops the container. Without a group, a container is assigned all its
 * partitions when it starts and they are revoked when it stops; with one, as leases are won and
 * lost.
 *
 * <p>Thread-safety: immutable.
 */
public abstract sealed class ObjlogListenerContainerEvent extends ApplicationEvent {
  private static final long serialVersionUID = 1L;

  private final String listenerId;

  ObjlogListenerContainerEvent(ObjlogListenerContainer container) {
    super(container);
    this.listenerId = container.getListenerId();
  }

  public String getListenerId() {
    return listenerId;
  }

  public ObjlogListenerContainer getContainer() {
    return (ObjlogListenerContainer) getSource();
  }

  /** The container started (its partitions start, or with a group, its first lease round begins). */
  public static final class Started extends ObjlogListenerContainerEvent {
    private static final long serialVersionUID = 1L;

    Started(ObjlogListenerContainer container) {
      super(container);
    }
  }

  /** The container stopped: its partition threads ended (or the shutdown timeout passed). */
  public static final class Stopped extends ObjlogListenerContainerEvent {
    private static final long serialVersionUID = 1L;

    Stopped(ObjlogListenerContainer container) {
      super(container);
    }
  }

  /**
   * A partition received no record for {@code objlog.listener.idle-event-interval}; published again
   * each further interval while it stays idle.
   */
  public static final class Idle extends ObjlogListenerContainerEvent {
    private static final long serialVersionUID = 1L;
    private final int partition;
    private final Duration idleFor;

    Idle(ObjlogListenerContainer container, int partition, Duration idleFor) {
      super(container);
      this.partition = partition;
      this.idleFor = idleFor;
    }

    public int getPartition() {
      return partition;
    }

    /** Since the last record (or the partition's start). */
    public Duration getIdleFor() {
      return idleFor;
    }
  }

  /** Partitions this container now consumes. */
  public static final class PartitionsAssigned extends ObjlogListenerContainerEvent {
    private static final long serialVersionUID = 1L;
    private final List<Integer> partitions;

    PartitionsAssigned(ObjlogListenerContainer container, List<Integer> partitions) {
      super(container);
      this.partitions = List.copyOf(partitions);
    }

    public List<Integer> getPartitions() {
      return partitions;
    }
  }

  /** Partitions this container no longer consumes (stopped, handed over or lease lost). */
  public static final class PartitionsRevoked extends ObjlogListenerContainerEvent {
    private static final long serialVersionUID = 1L;
    private final List<Integer> partitions;

    PartitionsRevoked(ObjlogListenerContainer container, List<Integer> partitions) {
      super(container);
      this.partitions = List.copyOf(partitions);
    }

    public List<Integer> getPartitions() {
      return partitions;
    }
  }

  /** A partition stopped on its own with {@link ObjlogListenerContainer.PartitionState#FAILED}. */
  public static final class PartitionFailed extends ObjlogListenerContainerEvent {
    private static final long serialVersionUID = 1L;
    private final int partition;
    private final String reason;
    private final transient @Nullable Throwable cause;

    PartitionFailed(ObjlogListenerContainer container, int partition, String reason, @Nullable Throwable cause) {
      super(container);
      this.partition = partition;
      this.reason = reason;
      this.cause = cause;
    }

    public int getPartition() {
      return partition;
    }

    /** What the partition's status reports as its failure. */
    public String getReason() {
      return reason;
    }

    public @Nullable Throwable getCause() {
      return cause;
    }
  }
}
