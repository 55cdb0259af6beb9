package dev.objlog.spring.test;

import dev.objlog.PartitionHead;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.listener.ObjlogListenerContainer;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Reads and awaits what the application wrote, by stream name and partition, for assertions:
 *
 * <pre class="code">
 * List&lt;TestRecord&gt; held = objlog.awaitRecords("orders", 2, 10);   // partition 2 holds 10 records
 * objlog.awaitCheckpoint("order-listener", 2, 10);              // the listener is past LSN 9
 * assertThat(objlog.readAll("orders")).extracting(TestRecord::key).contains("order-42");
 * </pre>
 *
 * <p>Reads see every committed record of the partition, from any writer in any process sharing the
 * store, as of the call: each read refreshes the partition's head first. Waits end as soon as the
 * condition holds; commits in this JVM wake a waiting {@link #awaitRecords} at once, others are
 * seen at the reader's poll interval ({@code objlog.reader.poll-interval}); checkpoints are
 * re-read every {@value #CHECKPOINT_POLL_MILLIS} ms. A wait that runs out of {@link #timeout()}
 * (measured on the logs' {@link Ticker}) fails with an {@link AssertionError} that lists what
 * the partition holds.
 *
 * <p>An instance is a bean of the contexts of {@link InMemoryObjlog}, {@link ObjlogTest} and
 * {@link AutoConfigureObjlogTester}; {@link #withTimeout} gives one with another timeout.
 *
 * <p>Thread-safety: immutable and safe for concurrent use.
 */
public final class ObjlogTester {
  /** How long awaits wait unless {@link #withTimeout} says otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /** Most records a failure message lists (the newest ones when there are more). */
  static final int LISTED_RECORDS = 20;

  static final long CHECKPOINT_POLL_MILLIS = 10;

  private final ObjlogStreams streams;
  private final @Nullable ObjlogListenerEndpointRegistry listeners;
  private final @Nullable CheckpointRepository checkpoints;
  private final Duration timeout;

  /**
   * @param streams the application's streams
   * @param listeners the listener registry, or null without {@code @ObjlogListener} support
   * @param checkpoints the repository the listeners save checkpoints in, or null without one
   */
  public ObjlogTester(ObjlogStreams streams, @Nullable ObjlogListenerEndpointRegistry listeners,
      @Nullable CheckpointRepository checkpoints) {
    this(streams, listeners, checkpoints, DEFAULT_TIMEOUT);
  }

  private ObjlogTester(ObjlogStreams streams, @Nullable ObjlogListenerEndpointRegistry listeners,
      @Nullable CheckpointRepository checkpoints, Duration timeout) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.listeners = listeners;
    this.checkpoints = checkpoints;
    this.timeout = Objects.requireNonNull(timeout, "timeout");
  }

  /** A tester whose awaits wait at most {@code timeout}. */
  public ObjlogTester withTimeout(Duration timeout) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative: " + timeout);
    }
    return new ObjlogTester(streams, listeners, checkpoints, timeout);
  }

  /** How long awaits wait. */
  public Duration timeout() {
    return timeout;
  }

  /**
   * Every record the stream holds now: partition by partition, each in LSN order.
   *
   * @throws dev.objlog.spring.core.UnknownStreamException if no stream has that name
   */
  public List<TestRecord> readAll(String stream) {
    ObjlogStream configured = streams.stream(stream);
    List<TestRecord> all = new ArrayList<>();
    for (int partition = 0; partition < configured.partitions(); partition++) {
      all.addAll(readAll(stream, partition));
    }
    return all;
  }

  /**
   * Every record partition {@code partition} of the stream holds now (from its retention floor to
   * its head), in LSN order.
   *
   * @throws dev.objlog.spring.core.UnknownStreamException if no stream has that name
   * @throws IllegalArgumentException if the stream has no such partition
   */
  public List<TestRecord> readAll(String stream, int partition) {
    checkPartition(stream, partition);
    LogReader reader = streams.reader(stream);
    PartitionHead head = reader.head(partition);
    try (Stream<ReadRecord> records = reader.partition(partition).replay(head.oldestLsn(), head.nextLsn())) {
      return records.map(r -> TestRecord.of(stream, r)).toList();
    }
  }

  /**
   * Waits until partition {@code partition} of the stream holds at least {@code count} records.
   *
   * @return every record the partition holds then, in LSN order (at least {@code count})
   * @throws AssertionError when it holds fewer at the timeout; the message lists them
   */
  public List<TestRecord> awaitRecords(String stream, int partition, int count) {
    checkPartition(stream, partition);
    Ticker ticker = streams.log(stream).options().ticker();
    long start = ticker.read();
    LogReader reader = streams.reader(stream);
    try (Watch watch = reader.watch(partition);
        Tailer commits = watch.tail(partition, reader.head(partition).nextLsn(), 0)) {
      while (true) {
        List<TestRecord> held = readAll(stream, partition);
        if (held.size() >= count) {
          return held;
        }
        long left = timeout.toNanos() - (ticker.read() - start);
        if (left <= 0) {
          throw new AssertionError("expected partition " + partition + " of stream '" + stream + "' to hold at least "
              + count + " records within " + timeout + ", but it holds " + held.size() + " records" + describe(held));
        }
        // Returns as soon as anything is committed past what was seen (or at once if it already was).
        commits.next(Duration.ofNanos(left));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while awaiting records of " + stream + "/" + partition, e);
    }
  }

  /**
   * Waits until listener {@code listenerId} has a checkpoint on {@code partition} of its stream
   * that resumes at {@code nextLsn} or later, that is, it has processed and checkpointed every
   * record below {@code nextLsn}. The checkpoint is read from the context's {@link
   * CheckpointRepository}, under the listener's group (or its id without one), as the listener
   * itself would read it after a restart.
   *
   * @return the stored checkpoint
   * @throws AssertionError when there is no such listener, or at the timeout; the message shows the
   *     stored checkpoint, the listener's partition status and what the partition holds
   */
  public StoredCheckpoint awaitCheckpoint(String listenerId, int partition, long nextLsn) {
    if (listeners == null || checkpoints == null) {
      throw new IllegalStateException("this context has no @ObjlogListener support (no listener registry or"
          + " CheckpointRepository bean), so there are no listener checkpoints to await");
    }
    ObjlogListenerContainer container = listeners.getListenerContainer(listenerId);
    if (container == null) {
      throw new AssertionError("no listener has the id '" + listenerId + "'; listeners: "
          + listeners.getListenerContainerIds());
    }
    String stream = container.getStreamName();
    checkPartition(stream, partition);
    Ticker ticker = streams.log(stream).options().ticker();
    long start = ticker.read();
    while (true) {
      Optional<StoredCheckpoint> stored = checkpoints.load(container.getCheckpointOwner(), stream, partition);
      if (stored.isPresent() && Long.compareUnsigned(stored.get().checkpoint().nextLsn(), nextLsn) >= 0) {
        return stored.get();
      }
      if (ticker.read() - start >= timeout.toNanos()) {
        List<TestRecord> held = readAll(stream, partition);
        String status = container.getPartitionStatuses().stream().filter(s -> s.partition() == partition)
            .map(Object::toString).findFirst().orElse("not consumed by this instance");
        throw new AssertionError("expected listener '" + listenerId + "' to checkpoint partition " + partition
            + " of stream '" + stream + "' at next LSN " + Long.toUnsignedString(nextLsn) + " or later within "
            + timeout + ", but its stored checkpoint is "
            + stored.map(s -> "at next LSN " + Long.toUnsignedString(s.checkpoint().nextLsn()) + " (saved "
                + s.updatedAt() + ")").orElse("absent")
            + " (checkpoints kept as '" + container.getCheckpointOwner() + "'; listener " + container.getState()
            + ", partition " + status + "); the partition holds " + held.size() + " records" + describe(held));
      }
      try {
        Thread.sleep(CHECKPOINT_POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while awaiting a checkpoint of " + listenerId, e);
      }
    }
  }

  private void checkPartition(String stream, int partition) {
    int partitions = streams.stream(stream).partitions();
    if (partition < 0 || partition >= partitions) {
      throw new IllegalArgumentException("stream '" + stream + "' has partitions 0 to " + (partitions - 1)
          + "; there is no partition " + partition);
    }
  }

  /** ":" and one line per record (the newest {@link #LISTED_RECORDS}), or "" when there are none. */
  static String describe(List<TestRecord> held) {
    if (held.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder(":");
    int from = Math.max(0, held.size() - LISTED_RECORDS);
    if (from > 0) {
      out.append("\n  ... ").append(from).append(" older records");
    }
    for (TestRecord record : held.subList(from, held.size())) {
      out.append("\n  ").append(record);
    }
    return out.toString();
  }
}
