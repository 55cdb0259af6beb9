package dev.objlog.spring.listener;

import dev.objlog.coordination.LeaseState;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PartitionSharing;
import dev.objlog.coordination.PreviousReleaseLeases;
import dev.objlog.replica.SnapshotStore;
import dev.objlog.read.LogReader;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.PartitionSet;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates {@link ObjlogListenerContainer}s from endpoints, filling unset endpoint settings with
 * its defaults ({@code objlog.listener.*}). The auto-configured bean is named {@code
 * objlogListenerContainerFactory}; define others and name them in {@link
 * ObjlogListener#containerFactory()}.
 *
 * <p>With a poll interval set, it reads through readers of its own (one per stream, closed by
 * {@link #close()}); otherwise through {@link ObjlogStreams#reader(String)}.
 *
 * <p>Thread-safety: configure before use; creating containers is safe for concurrent use.
 */
public class ObjlogListenerContainerFactory implements AutoCloseable {
  private final ObjlogStreams streams;
  private final CheckpointRepository checkpoints;
  private final RecordPayloadConverter payloadConverter;
  private final ObjlogListenerProperties properties;
  private final Map<String, LogReader> readers = new ConcurrentHashMap<>();
  private ListenerErrorHandler errorHandler;
  private @Nullable MeterRegistry meterRegistry;
  private Clock clock = Clock.systemUTC();
  private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;
  private @Nullable ObjlogListenerObservationConvention observationConvention;
  private @Nullable LeaseStore leases;
  private @Nullable PlatformTransactionManager transactionManager;
  private @Nullable SnapshotStore snapshotStore;
  private @Nullable ApplicationEventPublisher eventPublisher;
  private @Nullable ObjlogMessageHandlerMethodFactory messageHandlerMethodFactory;
  private ObjlogListenerContainer.@Nullable Sleeper sleeper;
  private java.util.concurrent.@Nullable Executor checkpointExecutor;

  public ObjlogListenerContainerFactory(ObjlogStreams streams, CheckpointRepository checkpoints,
      RecordPayloadConverter payloadConverter, ObjlogListenerProperties properties) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
    this.payloadConverter = Objects.requireNonNull(payloadConverter, "payloadConverter");
    this.properties = Objects.requireNonNull(properties, "properties");
    this.leases = leasesOf(checkpoints);
    this.errorHandler = new DefaultListenerErrorHandler(properties.getBackOff().toBackOff(), null);
  }

  /**
   * How listener method arguments are resolved (default: an {@link
   * ObjlogMessageHandlerMethodFactory} with this factory's payload converter and no validator).
   * Initialised here if it was not yet.
   */
  public void setMessageHandlerMethodFactory(ObjlogMessageHandlerMethodFactory messageHandlerMethodFactory) {
    messageHandlerMethodFactory.afterPropertiesSet(); // adds the resolvers once; idempotent
    synchronized (this) {
      this.messageHandlerMethodFactory = messageHandlerMethodFactory;
    }
  }

  public synchronized ObjlogMessageHandlerMethodFactory getMessageHandlerMethodFactory() {
    return messageHandlerMethodFactory();
  }

  private synchronized ObjlogMessageHandlerMethodFactory messageHandlerMethodFactory() {
    if (messageHandlerMethodFactory == null) {
      ObjlogMessageHandlerMethodFactory f = new ObjlogMessageHandlerMethodFactory(payloadConverter);
      f.afterPropertiesSet();
      messageHandlerMethodFactory = f;
    }
    return messageHandlerMethodFactory;
  }

  /** Tests: how retries wait (null: on the container's monitor). */
  void setSleeper(ObjlogListenerContainer.@Nullable Sleeper sleeper) {
    this.sleeper = sleeper;
  }

  /** Tests: where background checkpoint saves run (null: a pool of each container's own). */
  void setCheckpointExecutor(java.util.concurrent.@Nullable Executor checkpointExecutor) {
    this.checkpointExecutor = checkpointExecutor;
  }

  /** The error handler of endpoints that name none (default: retries, then stop the partition). */
  public void setErrorHandler(ListenerErrorHandler errorHandler) {
    this.errorHandler = Objects.requireNonNull(errorHandler, "errorHandler");
  }

  public ListenerErrorHandler getErrorHandler() {
    return errorHandler;
  }

  public void setMeterRegistry(@Nullable MeterRegistry meterRegistry) {
    this.meterRegistry = meterRegistry;
  }

  /** Observes each invocation as {@code objlog.listener} (default: no observations). */
  public void setObservationRegistry(ObservationRegistry observationRegistry) {
    this.observationRegistry = Objects.requireNonNull(observationRegistry, "observationRegistry");
  }

  /** Replaces the names and keys of the observation; null: the documented defaults. */
  public void setObservationConvention(@Nullable ObjlogListenerObservationConvention observationConvention) {
    this.observationConvention = observationConvention;
  }

  /**
   * The transaction manager of record (not batch) RECORD-mode endpoints that name none: each invocation and its
   * checkpoint save run in one of its transactions. Null (the default): no transaction. An
   * endpoint in another mode with a transaction manager is rejected.
   */
  public void setTransactionManager(@Nullable PlatformTransactionManager transactionManager) {
    this.transactionManager = transactionManager;
  }

  /**
   * Where listeners that start from a snapshot read its payload (default: the log's own bucket,
   * {@link SnapshotStore#inBucket}).
   */
  public void setSnapshotStore(@Nullable SnapshotStore snapshotStore) {
    this.snapshotStore = snapshotStore;
  }

  /**
   * Where containers publish their {@link ObjlogListenerContainerEvent}s (the auto-configured
   * factory: the application context); null (the default): no events.
   */
  public void setApplicationEventPublisher(@Nullable ApplicationEventPublisher eventPublisher) {
    this.eventPublisher = eventPublisher;
  }

  /** The lease store of a checkpoint repository that keeps leases too (all of this module's do). */
  private static @Nullable LeaseStore leasesOf(CheckpointRepository checkpoints) {
    return checkpoints instanceof LeaseStoreProvider p ? p.leaseStore() : null;
  }

  /** Where group listeners keep partition leases (default: the checkpoint repository's lease store). */
  public void setLeaseStore(@Nullable LeaseStore leases) {
    this.leases = leases;
  }

  /**
   * The wall clock of checkpoint times and lag ages; the lease repository's should agree. Group
   * lease deadlines are elapsed time, on the stream's {@link dev.objlog.ObjlogOptions#ticker()}.
   */
  public void setClock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * @throws IllegalArgumentException when the endpoint's stream, partitions or method cannot work
   */
  public ObjlogListenerContainer createContainer(ObjlogListenerEndpoint endpoint) {
    ObjlogStream stream;
    try {
      stream = streams.stream(endpoint.getStream());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + ": " + e.getMessage(), e);
    }
    PartitionSet partitions;
    try {
      partitions = PartitionSet.parse(endpoint.getPartitions(), stream.partitions());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + ": partitions \"" + endpoint.getPartitions()
          + "\": " + e.getMessage(), e);
    }
    CheckpointMode mode = endpoint.getCheckpointMode() != null ? endpoint.getCheckpointMode()
        : properties.getCheckpointMode();
    ListenerMethod invoker =
        new ListenerMethod(endpoint.getBean(), endpoint.getMethod(), endpoint.isBatch(), messageHandlerMethodFactory());
    if (invoker.acceptsAcknowledgment() && mode != CheckpointMode.MANUAL) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + " takes an Acknowledgment but its"
          + " checkpoint mode is " + mode + ": set checkpointMode = \"MANUAL\"");
    }
    if (mode == CheckpointMode.MANUAL && !invoker.acceptsAcknowledgment()) {
      throw new IllegalArgumentException("listener " + endpoint.getId()
          + " uses checkpoint mode MANUAL but its method takes no Acknowledgment: it would never checkpoint");
    }
    int ackCount = endpoint.getAckCount() != null ? endpoint.getAckCount() : properties.getAckCount();
    Duration ackTime = endpoint.getAckTime() != null ? endpoint.getAckTime() : properties.getAckTime();
    if (ackCount < 1) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + ": ackCount must be positive");
    }
    StartPosition start = endpoint.getStartPosition() != null ? endpoint.getStartPosition()
        : StartPosition.parse(properties.getStartPosition());
    TransactionTemplate transaction = transaction(endpoint, mode);
    ObjlogListenerProperties.CheckpointErrors errors = properties.getCheckpointErrors();
    PartitionSharing.Settings group = groupSettings(endpoint);
    return new ObjlogListenerContainer(new ObjlogListenerContainer.Settings(
        endpoint, stream, partitions, reader(stream.name()), checkpoints, invoker,
        endpoint.getErrorHandler() != null ? endpoint.getErrorHandler() : errorHandler,
        start, mode, ackCount, ackTime, errors.getMismatch(), errors.getExpired(), errors.getAhead(),
        properties.getShutdownTimeout(), clock, streams.log(stream.name()).options().ticker(),
        new ListenerMetrics(meterRegistry), observationRegistry,
        observationConvention, group, transaction, snapshotStart(endpoint, stream, start, errors),
        eventPublisher, properties.getIdleEventInterval(), sleeper, properties.isSyncCheckpoints(),
        checkpointExecutor));
  }

  /** The snapshot start of an endpoint that can start from a snapshot, else null. */
  private @Nullable SnapshotStart snapshotStart(ObjlogListenerEndpoint endpoint, ObjlogStream stream,
      StartPosition start, ObjlogListenerProperties.CheckpointErrors errors) {
    boolean needed = start instanceof StartPosition.Snapshot
        || java.util.stream.Stream.of(errors.getMismatch(), errors.getExpired(), errors.getAhead())
            .anyMatch(o -> o == CheckpointErrorOutcome.SNAPSHOT);
    if (!needed) {
      return null;
    }
    if (!(endpoint.getBean() instanceof SnapshotAwareListener listener)) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + " can start from a snapshot (its start"
          + " position or an objlog.listener.checkpoint-errors.* outcome is snapshot) but its bean "
          + endpoint.getBean().getClass().getName()
          + " does not implement SnapshotAwareListener: implement it, or choose another start position and outcome");
    }
    SnapshotStore store = snapshotStore != null ? snapshotStore : SnapshotStore.inBucket(streams.store());
    return new SnapshotStart(streams.log(stream.name()), store, listener);
  }

  private PartitionSharing.@Nullable Settings groupSettings(ObjlogListenerEndpoint endpoint) {
    String group = endpoint.getGroup();
    if (group == null || group.isEmpty()) {
      return null;
    }
    if (leases == null) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + " has group " + group
          + ", but the checkpoint repository " + checkpoints.getClass().getName() + " keeps no leases:"
          + " define a LeaseStore bean or use a JDBC, bucket or in-memory checkpoint store");
    }
    ObjlogListenerProperties.Group g = properties.getGroup();
    checkGroup(endpoint.getId(), group, leases, g.getLeaseTtl(), g.getRenewInterval(), g.getSafetyMargin());
    return new PartitionSharing.Settings(leases, properties.instanceIdOrDefault(), g.getLeaseTtl(), g.getRenewInterval(),
        g.getSafetyMargin());
  }

  /**
   * Checks the settings of a group listener whose leases live in {@code leases}. Every group name
   * is an ordinary group, except while the previous release's leases are held too ({@link
   * PreviousReleaseLeases}): then the names that release reserved are refused.
   *
   * @throws IllegalArgumentException saying which property to change
   */
  static void checkGroup(String listenerId, String group, LeaseStore leases, Duration ttl, Duration renewInterval,
      Duration safetyMargin) {
    try {
      LeaseState.checkName("group", group);
      if (leases instanceof PreviousReleaseLeases) {
        PreviousReleaseLeases.checkConsumerGroup(group);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("listener " + listenerId + ": " + e.getMessage(), e);
    }
    if (ttl.isNegative() || safetyMargin.isNegative() || renewInterval.isNegative() || renewInterval.isZero()
        || renewInterval.compareTo(ttl.minus(safetyMargin)) >= 0) {
      throw new IllegalArgumentException("listener " + listenerId + ": objlog.listener.group.renew-interval ("
          + renewInterval + ") must be positive and shorter than lease-ttl (" + ttl + ") minus safety-margin ("
          + safetyMargin + "); a third of that difference or less survives one failed renewal");
    }
  }

  private @Nullable TransactionTemplate transaction(ObjlogListenerEndpoint endpoint, CheckpointMode mode) {
    if (endpoint.getTransactionManager() != null && mode != CheckpointMode.RECORD) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + " names a transactionManager but its"
          + " checkpoint mode is " + mode + ": only RECORD mode saves the checkpoint inside each invocation's"
          + " transaction. Set checkpointMode = \"RECORD\", or (MANUAL mode) acknowledge inside your own transaction");
    }
    if (endpoint.getTransactionManager() != null && endpoint.isBatch()) {
      throw new IllegalArgumentException("listener " + endpoint.getId() + " is a batch listener with a"
          + " transactionManager: one transaction per batch would roll back the records before a failing"
          + " element too. Use a record listener (batch = \"false\") for transactional checkpoints");
    }
    PlatformTransactionManager manager = endpoint.getTransactionManager() != null ? endpoint.getTransactionManager()
        : mode == CheckpointMode.RECORD && !endpoint.isBatch() ? transactionManager : null;
    return manager == null ? null : new TransactionTemplate(manager);
  }

  private LogReader reader(String streamName) {
    Duration poll = properties.getPollInterval();
    if (poll == null) {
      return streams.reader(streamName);
    }
    return readers.computeIfAbsent(streamName, name ->
        streams.log(name).newReader(streams.readerOptions().toBuilder().pollInterval(poll).build()));
  }

  /** Closes the readers this factory opened. */
  @Override
  public void close() {
    readers.values().forEach(LogReader::close);
    readers.clear();
  }
}
