package dev.objlog.spring.core;

import static dev.objlog.spring.core.CommitFailures.indeterminate;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.CommitUndecidableException;
import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.PartitionWriter;
import dev.objlog.RetentionResult;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterClosedException;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.store.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

/**
 * Sends records to the configured streams by name, and reports when they are durable.
 *
 * <p><b>Writers.</b> The template owns one {@link PartitionWriter} per partition this instance
 * writes ({@code objlog.streams.<name>.writer.partitions}, all by default), opened on the first
 * send to that partition. Opening a writer fences the partition: any other writer of it (in this
 * or another process) fails its next commit with {@link StaleWriterException}. Without leases,
 * which instance writes which partition is static configuration: two instances writing one
 * partition fence each other, and the one fenced out fails its sends.
 *
 * <p><b>Writer leases.</b> For a stream with {@link StreamWriterSettings#lease()} set, instances
 * sharing a {@link LeaseStore} divide the writer partitions among themselves: each claims a
 * disjoint share by lease, renews it in the background, writes only the partitions it holds, takes
 * over partitions released by an instance that shut down or whose lease expired, and releases its
 * own on {@link #close()} (see {@link WriterLeases}). A keyed send picks among the held
 * partitions (so a key's partition changes when the share does); a send naming a partition not held
 * throws {@link PartitionNotWritableException}, and so does a keyed send while none is held, or
 * when a rebalance takes the chosen partition away (retry). Losing a lease closes
 * the partition's writer. Leases only steer writers apart: the catalog fence still decides, so a
 * writer that bypassed the leases fences this one out as above.
 *
 * <p><b>Futures.</b> Each send returns a future that completes with a {@link SendResult} once the
 * record is committed (readable by every reader), or fails with what the log or store decided:
 * {@link StaleWriterException} when another writer took the partition over (later sends fail the
 * same way unless {@code writer.reopen-after-fence-loss} is set, in which case the next send takes
 * the partition back), {@link dev.objlog.WriterBackpressureException} when the writer fails fast
 * and is full, or a store failure once the writer's retries are spent. After any terminal failure
 * other than a fence loss, the next send opens a new writer.
 *
 * <p><b>Indeterminate commits are settled.</b> When a writer ends with {@link
 * CommitIndeterminateException} (its head write got no clear answer), the template re-opens the
 * partition's writer (taking the partition over), asks {@link Objlog#commitStatus} which of the
 * writer's unsettled sends landed, completes those, and appends the others again through the new
 * writer, in their original order, so each record is in the log once (a re-sent record gets a new
 * LSN). This happens before any later send to the partition is appended, in the background or in
 * that send. A record is sent again at most {@value #MAX_RESENDS} times; then its future fails with
 * an {@link ObjlogException} saying it was not committed. With writer leases the template re-opens
 * only a partition whose lease it holds; otherwise it asks without re-opening, which answers once
 * the lease holder has taken the partition over, and fails a send that did not land with {@link
 * StaleWriterException}. Each send is settled by its own commit's outcome, and futures
 * complete outside the partition's lock, so their callbacks may send or flush. When the answer cannot be had (the partition was not taken over yet,
 * retention trimmed the range, re-opening or asking failed, the template is closing), the future
 * fails with {@link CommitIndeterminateException}, a {@link CommitUndecidableException} when the
 * log said why: only then may the record be in the log or not. The other failures named here mean
 * the record is not in the log.
 *
 * <p><b>Caller errors throw</b> at once, and nothing is sent: {@link UnknownStreamException},
 * {@link InvalidArgumentException} for a partition out of range or a record too large, {@link
 * PartitionNotWritableException} for a partition this instance does not write, {@link
 * ObjlogConversionException} for a value that cannot be converted.
 *
 * <p><b>Timestamps</b> are {@code max(now, previous)} per partition (the previous one includes the
 * newest committed timestamp when the writer opened), so a wall clock stepping back never gets a
 * send rejected; records keep the previous timestamp until the clock catches up.
 *
 * <p><b>Observation.</b> With {@link #setObservationEnabled} (off by default), each send is an
 * {@code objlog.template} observation ({@link ObjlogTemplateObservation}), stopped when its future
 * completes; a tracer writes the trace context into the record's headers, skipping (and counting)
 * what a record whose headers are full cannot carry.
 *
 * <p>{@link #close()} flushes and closes every writer; the auto-configured bean is closed when the
 * application context shuts down.
 *
 * <p>Thread-safety: safe for concurrent use. Sends to one partition are appended in the order
 * their calls acquire that partition (one thread's sends keep their order).
 */
public class ObjlogTemplate implements ObjlogOperations, AutoCloseable {
  private final ObjlogStreams streams;
  private final RecordValueConverter converter;
  private final Clock clock;
  private final StoreActivity activity;
  private final Map<String, StreamWriterSettings> settings = new ConcurrentHashMap<>();
  /** Configured streams' from the start; an auto-created stream's from its first use ({@link #slotsOf}). */
  private final Map<String, PartitionWriterSlot[]> slots = new ConcurrentHashMap<>();
  /** Writer settings of streams auto-created after construction; null: defaults on all partitions. */
  private final @Nullable Function<ObjlogStream, StreamWriterSettings> autoCreatedSettings;
  private final @Nullable WriterLeases leases;
  /** Settles indeterminate commits off the writers' threads, which must never wait for a slot. */
  private final ExecutorService settler;
  private volatile boolean closed;

  private volatile @Nullable String defaultStream;
  private final TemplateObservations observations = new TemplateObservations();

  /** How many times one send's record is appended again after indeterminate commits. */
  public static final int MAX_RESENDS = 3;

  /**
   * @param streams the configured streams
   * @param settings writer settings by stream name; a stream without an entry is written on all
   *     partitions with default options
   * @param converter turns values into record bytes
   * @param clock the source of record timestamps
   * @param activity where store outcomes are recorded for health
   * @throws IllegalArgumentException if settings name an unknown stream or another partition
   *     count, or ask for writer leases (then use the constructor with a {@link LeaseStore})
   */
  public ObjlogTemplate(ObjlogStreams streams, Map<String, StreamWriterSettings> settings,
      RecordValueConverter converter, Clock clock, StoreActivity activity) {
    this(streams, settings, converter, clock, activity, null);
  }

  /**
   * A template whose streams with {@link StreamWriterSettings#lease()} share their partitions
   * through {@code leaseStore}. It claims its first share before returning (a round of lease
   * requests per such stream), then keeps the leases in the background.
   *
   * @param leaseStore where writer leases live; needed when a stream's settings ask for leases
   * @throws IllegalArgumentException as the other constructor, or when a stream asks for leases
   *     and {@code leaseStore} is null
   */
  public ObjlogTemplate(ObjlogStreams streams, Map<String, StreamWriterSettings> settings,
      RecordValueConverter converter, Clock clock, StoreActivity activity, @Nullable LeaseStore leaseStore) {
    this(streams, settings, converter, clock, activity, leaseStore, newSettler());
  }

  /**
   * As above, writing streams that {@code streams} auto-creates after construction with the
   * settings {@code autoCreatedSettings} gives them (writer leases included, kept in {@code
   * leaseStore}).
   */
  public ObjlogTemplate(ObjlogStreams streams, Map<String, StreamWriterSettings> settings,
      RecordValueConverter converter, Clock clock, StoreActivity activity, @Nullable LeaseStore leaseStore,
      @Nullable Function<ObjlogStream, StreamWriterSettings> autoCreatedSettings) {
    this(streams, settings, converter, clock, activity, leaseStore, newSettler(), autoCreatedSettings);
  }

  /** As above, settling on {@code settler} (tests hold it to choose who settles), shut down on close. */
  ObjlogTemplate(ObjlogStreams streams, Map<String, StreamWriterSettings> settings, RecordValueConverter converter,
      Clock clock, StoreActivity activity, @Nullable LeaseStore leaseStore, ExecutorService settler) {
    this(streams, settings, converter, clock, activity, leaseStore, settler, null);
  }

  private ObjlogTemplate(ObjlogStreams streams, Map<String, StreamWriterSettings> settings,
      RecordValueConverter converter, Clock clock, StoreActivity activity, @Nullable LeaseStore leaseStore,
      ExecutorService settler, @Nullable Function<ObjlogStream, StreamWriterSettings> autoCreatedSettings) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.autoCreatedSettings = autoCreatedSettings;
    this.converter = Objects.requireNonNull(converter, "converter");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.activity = Objects.requireNonNull(activity, "activity");
    this.settler = Objects.requireNonNull(settler, "settler"); // before the slots, which use it
    Map<String, StreamWriterSettings> resolved = new LinkedHashMap<>();
    for (String name : settings.keySet()) {
      streams.stream(name);
    }
    for (ObjlogStream stream : streams.streams()) {
      StreamWriterSettings s = settings.getOrDefault(stream.name(), StreamWriterSettings.defaults(stream.partitions()));
      checkSettings(stream, s, leaseStore != null);
      resolved.put(stream.name(), s);
      PartitionWriterSlot[] array = new PartitionWriterSlot[stream.partitions()];
      s.partitions().stream().forEach(p -> array[p] = new PartitionWriterSlot(this, stream, p, s));
      slots.put(stream.name(), array);
    }
    this.settings.putAll(resolved);
    WriterLeases keeper = null;
    if (leaseStore != null
        && (resolved.values().stream().anyMatch(s -> s.lease() != null) || autoCreatedSettings != null)) {
      // Elapsed time from the logs' options (one ticker for every stream of an ObjlogStreams).
      Ticker ticker = streams.options().ticker();
      keeper = new WriterLeases(leaseStore, "writer-" + UUID.randomUUID(), new WriterLeases.Listener() {
        @Override
        public void granted(String streamName, int partition) {
          slots.get(streamName)[partition].leaseGranted();
        }

        @Override
        public void leaseUntil(String streamName, int partition, long deadlineNanos) {
          slots.get(streamName)[partition].leaseUntil(deadlineNanos);
        }

        @Override
        public void stopSending(String streamName, int partition) {
          slots.get(streamName)[partition].leaseEnding();
        }

        @Override
        public void givingUp(String streamName, int partition) {
          slots.get(streamName)[partition].leaseGivenUp();
        }
      }, ticker);
      for (ObjlogStream stream : streams.streams()) {
        StreamWriterSettings s = resolved.get(stream.name());
        if (s.lease() != null) {
          keeper.add(stream.name(), stream.partitions(), s.partitions(), s.lease());
        }
      }
      keeper.start();
    }
    this.leases = keeper;
  }

  /**
   * The slots of a stream: a configured stream's exist from construction; an auto-created stream's
   * are made on its first use here, with {@code autoCreatedSettings}, and its writer leases (if it
   * asks for them) get a first round before this returns, as configured streams' do in the
   * constructor.
   */
  private PartitionWriterSlot[] slotsOf(ObjlogStream stream) {
    PartitionWriterSlot[] array = slots.get(stream.name());
    if (array != null) {
      return array;
    }
    synchronized (slots) {
      array = slots.get(stream.name());
      if (array != null) {
        return array;
      }
      if (closed) {
        throw new WriterClosedException("the template is closed");
      }
      StreamWriterSettings s = autoCreatedSettings == null
          ? StreamWriterSettings.defaults(stream.partitions()) : autoCreatedSettings.apply(stream);
      checkSettings(stream, s, leases != null);
      PartitionWriterSlot[] made = new PartitionWriterSlot[stream.partitions()];
      s.partitions().stream().forEach(p -> made[p] = new PartitionWriterSlot(this, stream, p, s));
      settings.put(stream.name(), s);
      slots.put(stream.name(), made);
      if (s.lease() != null) {
        leases.addStarted(stream.name(), stream.partitions(), s.partitions(), s.lease());
      }
      return made;
    }
  }

  private static void checkSettings(ObjlogStream stream, StreamWriterSettings s, boolean canLease) {
    if (s.partitions().partitionCount() != stream.partitions()) {
      throw new IllegalArgumentException("writer partitions of stream '" + stream.name() + "' are for "
          + s.partitions().partitionCount() + " partitions, the stream has " + stream.partitions());
    }
    if (s.lease() != null && !canLease) {
      throw new IllegalArgumentException("stream '" + stream.name() + "' asks for writer leases, but there is no"
          + " LeaseStore to keep them in");
    }
  }

  private static ExecutorService newSettler() {
    AtomicInteger settlers = new AtomicInteger();
    return Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "objlog-template-settle-" + settlers.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** A template with default writer settings, the default converter (no JSON) and the system clock. */
  public ObjlogTemplate(ObjlogStreams streams) {
    this(streams, Map.of(), new DefaultRecordValueConverter(null), Clock.systemUTC(), new StoreActivity());
  }

  /**
   * The stream the {@code sendDefault} methods and messages without {@link ObjlogHeaders#STREAM}
   * write ({@code objlog.template.default-stream}); null: none, and those sends throw {@link
   * NoDefaultStreamException}. Set it before use. The name is checked when a send uses it, as a
   * named stream's is.
   *
   * @throws IllegalArgumentException when blank
   */
  public void setDefaultStream(@Nullable String defaultStream) {
    if (defaultStream != null && defaultStream.isBlank()) {
      throw new IllegalArgumentException("the default stream must not be blank; null sets none");
    }
    this.defaultStream = defaultStream;
  }

  @Override
  public Optional<String> getDefaultStream() {
    return Optional.ofNullable(defaultStream);
  }

  /** Whether each send is an {@code objlog.template} observation ({@link ObjlogTemplateObservation}); default false. */
  public void setObservationEnabled(boolean enabled) {
    observations.setEnabled(enabled);
  }

  /** Where sends are observed once enabled; default {@link ObservationRegistry#NOOP} (none). */
  public void setObservationRegistry(ObservationRegistry observationRegistry) {
    observations.setRegistry(observationRegistry);
  }

  /** Replaces the names and keys of the send observation; null: the documented defaults. */
  public void setObservationConvention(@Nullable ObjlogTemplateObservationConvention convention) {
    observations.setConvention(convention);
  }

  /** Where the counter {@code objlog.template.trace.headers.skipped} is kept; null: not counted. */
  public void setMeterRegistry(@Nullable MeterRegistry meterRegistry) {
    observations.setMeterRegistry(meterRegistry);
  }

  /**
   * Sends {@code value} to a partition.
   *
   * @return completes with the result once the record is durable; fails as the class describes
   * @throws UnknownStreamException, InvalidArgumentException, PartitionNotWritableException,
   *     ObjlogConversionException for caller errors (nothing sent)
   */
  @Override
  public CompletableFuture<SendResult> send(String streamName, int partition, Object value) {
    PartitionWriterSlot slot = slot(streamName, partition);
    byte[] bytes = converter.toBytes(Objects.requireNonNull(value, "value"));
    return observations.send(streamName, partition, List.of(), headers -> slot.send(headers, bytes));
  }

  /**
   * Sends {@code value} to the partition {@link KeyPartitioner} picks for {@code key}, with the key
   * as the record header {@link ObjlogHeaders#KEY}.
   */
  @Override
  public CompletableFuture<SendResult> send(String streamName, String key, Object value) {
    int partition = partitionForKey(streams.stream(streamName), Objects.requireNonNull(key, "key"));
    PartitionWriterSlot slot = slot(streamName, partition);
    byte[] bytes = converter.toBytes(Objects.requireNonNull(value, "value"));
    return observations.send(streamName, partition, List.of(Header.of(ObjlogHeaders.KEY, key)),
        headers -> slot.send(headers, bytes));
  }

  /**
   * Sends a message's payload. {@link ObjlogHeaders#STREAM} names the stream; {@link
   * ObjlogHeaders#PARTITION} or else {@link ObjlogHeaders#KEY} picks the partition (neither: the
   * stream must have one partition). Every other header except Spring's generated {@code id} and
   * {@code timestamp} becomes a record header: {@code byte[]} values as they are, others as their
   * {@code toString()} in UTF-8. The key is kept as a record header too. Without {@link
   * ObjlogHeaders#STREAM} the message goes to the {@linkplain #setDefaultStream default stream}.
   *
   * @throws NoDefaultStreamException when the message names no stream and there is no default
   */
  @Override
  public CompletableFuture<SendResult> send(Message<?> message) {
    MessageHeaders headers = message.getHeaders();
    Object streamHeader = headers.get(ObjlogHeaders.STREAM);
    if (streamHeader == null) {
      streamHeader = getDefaultStream().orElseThrow(NoDefaultStreamException::new);
    }
    if (!(streamHeader instanceof String streamName)) {
      throw new InvalidArgumentException("a message sent with ObjlogTemplate needs the header "
          + ObjlogHeaders.STREAM + " (a String naming the stream), had " + streamHeader);
    }
    ObjlogStream stream = streams.stream(streamName);
    Object partitionHeader = headers.get(ObjlogHeaders.PARTITION);
    Object keyHeader = headers.get(ObjlogHeaders.KEY);
    int partition;
    if (partitionHeader != null) {
      partition = MessageRecords.partitionOf(partitionHeader);
    } else if (keyHeader != null) {
      partition = partitionForKey(stream, keyHeader.toString());
    } else if (stream.partitions() == 1) {
      partition = 0;
    } else {
      throw new InvalidArgumentException("stream '" + streamName + "' has " + stream.partitions()
          + " partitions: set the header " + ObjlogHeaders.PARTITION + " or " + ObjlogHeaders.KEY);
    }
    PartitionWriterSlot slot = slot(streamName, partition);
    List<Header> recordHeaders = MessageRecords.headersOf(headers);
    byte[] bytes = converter.toBytes(message.getPayload());
    return observations.send(streamName, partition, recordHeaders, h -> slot.send(h, bytes));
  }

  /** The key's partition: by {@link KeyPartitioner}, among the held ones with writer leases. */
  private int partitionForKey(ObjlogStream stream, String key) {
    if (leases == null || !leases.manages(stream.name())) {
      return KeyPartitioner.partition(key, stream.partitions());
    }
    int[] held = leases.held(stream.name());
    if (held.length == 0) {
      throw PartitionNotWritableException.notLeased(stream.name(), KeyPartitioner.partition(key, stream.partitions()),
          PartitionSet.of(held, stream.partitions()));
    }
    return held[KeyPartitioner.partition(key, held.length)];
  }

  private PartitionWriterSlot slot(String streamName, int partition) {
    ObjlogStream stream = streams.stream(streamName);
    stream.checkPartition(partition);
    PartitionWriterSlot slot = slotsOf(stream)[partition];
    if (slot == null) {
      throw new PartitionNotWritableException(streamName, partition, settings.get(streamName).partitions());
    }
    slot.checkLease();
    return slot;
  }

  /**
   * Waits until everything sent so far to partitions whose writer is working is durable, and the
   * futures of those sends have completed. Sends of a writer that ended indeterminate are waited for
   * until they are settled (see the class comment); their futures, not this method, report how.
   * Other writers that already failed are skipped: their sends' futures have failed.
   *
   * @throws ObjlogException the first failure of a writer that failed while flushing
   */
  @Override
  public void flush() {
    ObjlogException first = null;
    for (PartitionWriterSlot[] array : slots.values()) {
      for (PartitionWriterSlot slot : array) {
        PartitionWriter writer = slot == null ? null : slot.writer();
        if (writer == null) {
          continue;
        }
        if (writer.failure().isEmpty() && !writer.state().closed()) {
          try {
            writer.flush();
          } catch (ObjlogException e) {
            // An indeterminate end is settled; each send's future tells how.
            if (first == null && indeterminate(e) == null) {
              first = e;
            }
          }
        }
        slot.awaitOutstanding(); // a failed writer's sends may be being settled
      }
    }
    if (first != null) {
      throw first;
    }
  }

  /**
   * The partitions of a stream this instance writes: its writer partitions, or with writer leases
   * those of them whose lease it holds now.
   */
  public PartitionSet writablePartitions(String streamName) {
    ObjlogStream stream = streams.stream(streamName);
    slotsOf(stream);
    if (leases != null && leases.manages(streamName)) {
      return PartitionSet.of(leases.held(streamName), stream.partitions());
    }
    return settings.get(streamName).partitions();
  }

  /** The owner id of this instance's writer leases, when a stream uses them. */
  public Optional<String> writerLeaseOwner() {
    return leases == null ? Optional.empty() : Optional.of(leases.owner());
  }

  /**
   * This instance's writer leases of a stream as of its last lease round, from memory only: empty
   * when the stream does not use writer leases.
   *
   * @throws UnknownStreamException for a stream that is not configured
   */
  public Optional<WriterLeaseStatus> writerLeaseStatus(String streamName) {
    slotsOf(streams.stream(streamName));
    if (leases == null || !leases.manages(streamName)) {
      return Optional.empty();
    }
    return Optional.of(leases.status(streamName));
  }

  /** What this instance knows of its writer of one partition, from memory only. */
  public LocalWriterStatus writerStatus(String streamName, int partition) {
    ObjlogStream stream = streams.stream(streamName);
    stream.checkPartition(partition);
    PartitionWriterSlot slot = slotsOf(stream)[partition];
    if (slot == null) {
      return new LocalWriterStatus(streamName, partition, LocalWriterStatus.State.NOT_WRITTEN_HERE, null, null, 0,
          null, 0, null);
    }
    return slot.status();
  }

  /**
   * Applies the partition's pending retention request ({@code Objlog.requestRetention}) through
   * this instance's writer of it, if that writer is open and working. Retention is applied only
   * under the writer's fence, so a partition whose writer is not open here (not written by this
   * instance, not sent to yet, failed or closed) is left alone: empty is returned and the request
   * waits for its writer.
   *
   * @return the outcome, or empty when this instance has no working writer of the partition
   * @throws UnknownStreamException, InvalidArgumentException for an unknown stream or partition
   * @throws ObjlogException what the writer's apply threw ({@link
   *     dev.objlog.CommitIndeterminateException}: the next call settles it; {@link
   *     StaleWriterException}: another writer took the partition over)
   */
  public Optional<RetentionResult> applyRetention(String streamName, int partition) {
    ObjlogStream stream = streams.stream(streamName);
    stream.checkPartition(partition);
    PartitionWriterSlot slot = slotsOf(stream)[partition];
    PartitionWriter writer = slot == null ? null : slot.writer();
    if (closed || writer == null || writer.failure().isPresent() || writer.state().closed()) {
      return Optional.empty();
    }
    try {
      RetentionResult result = writer.applyRetention();
      activity.success();
      return Optional.of(result);
    } catch (WriterClosedException e) {
      return Optional.empty(); // it failed or closed since the check: nothing applied here
    } catch (ObjlogException e) {
      activity.failure(e);
      throw e;
    }
  }

  /** The status of every partition this instance writes, opened or not. */
  public List<LocalWriterStatus> writerStatuses() {
    List<LocalWriterStatus> all = new ArrayList<>();
    for (PartitionWriterSlot[] array : slots.values()) {
      for (PartitionWriterSlot slot : array) {
        if (slot != null) {
          all.add(slot.status());
        }
      }
    }
    return all;
  }

  public ObjlogStreams streams() {
    return streams;
  }

  /**
   * Flushes and closes every writer and releases this instance's writer leases; later sends fail
   * with {@link WriterClosedException}. Idempotent. Failures are logged, not thrown: they already failed the sends' futures.
   */
  @Override
  public void close() {
    closed = true;
    if (leases != null) {
      leases.close(); // closes the leased partitions' writers, then releases their leases
    }
    for (PartitionWriterSlot[] array : slots.values()) {
      for (PartitionWriterSlot slot : array) {
        if (slot != null) {
          slot.close();
        }
      }
    }
    settler.shutdown();
  }

  Clock clock() {
    return clock;
  }

  /** Elapsed time: the logs' (writer lease deadlines are measured on it). */
  Ticker ticker() {
    return streams.options().ticker();
  }

  StoreActivity activity() {
    return activity;
  }

  ExecutorService settler() {
    return settler;
  }

  /** Whether {@link #close()} was called: slots then fail sends and settle without re-opening. */
  boolean isClosed() {
    return closed;
  }

  /** The writer partitions of a leased stream whose lease this instance holds now. */
  int[] heldWriterPartitions(String streamName) {
    return Objects.requireNonNull(leases).held(streamName);
  }

  @Override
  public String toString() {
    return "ObjlogTemplate[streams=" + streams.names() + "]";
  }
}
