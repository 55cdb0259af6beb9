package dev.objlog.lifecycle;

import dev.objlog.InvalidArgumentException;
import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.RetentionGate;
import dev.objlog.RetentionRegressionException;
import dev.objlog.RetentionRequest;
import dev.objlog.SegmentPage;
import dev.objlog.SegmentRef;
import dev.objlog.SnapshotMarker;
import dev.objlog.internal.Elapsed;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.lifecycle.ConsumerFloors.ConsumerFloor;
import dev.objlog.store.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Retention "until consumed": each {@link #run(int)} advances a partition's retention by itself
 * to the lowest floor its registered consumers have applied ({@link ConsumerFloors}), minus an
 * optional keep window of records, and never beyond the newest snapshot's {@link
 * SnapshotMarker#replayFromLsn()}. A partition with no registered consumer keeps everything.
 *
 * <p>A consumer that stops advancing keeps holding retention back, by default forever; while it
 * does, the gauges {@code objlog.retention.consumer.held.seconds} and {@code
 * objlog.retention.consumer.held.bytes} say for how long and how many bytes, and a warning names
 * it once it has held for {@link Builder#warnAfter}. With {@link Builder#expireAfter} a consumer
 * that has not advanced for that long (while behind) is ignored until it advances again.
 *
 * <p>Requests only ask; the writer applies them. {@link #gate()} is the same limit as a {@link
 * RetentionGate}: hold the writer's log with it ({@code log.holdRetention(policy.gate())}) so that
 * the writer clamps every request it applies to it, whoever wrote the request (a Go writer does
 * not clamp).
 *
 * <p>Thread-safety: safe for concurrent use; runs of one partition are serialised.
 */
public final class UntilConsumedRetention {
  private final Objlog log;
  private final ConsumerFloors floors;
  private final long keepRecords;
  private final @Nullable Duration expireAfter;
  private final Duration warnAfter;
  private final Ticker ticker;
  private final MeterRegistry meters;
  private final Consumer<String> warnings;
  private final Map<Integer, PartitionState> partitions = new ConcurrentHashMap<>();

  private UntilConsumedRetention(Builder b) {
    this.log = b.log;
    this.floors = b.floors;
    this.keepRecords = b.keepRecords;
    this.expireAfter = b.expireAfter;
    this.warnAfter = b.warnAfter;
    this.ticker = b.ticker != null ? b.ticker : b.log.options().ticker();
    this.meters = b.log.options().meterRegistry();
    this.warnings = b.warnings != null ? b.warnings
        : message -> System.getLogger(UntilConsumedRetention.class.getName()).log(System.Logger.Level.WARNING, message);
  }

  /** A builder of the policy for {@code log}, reading consumer floors from {@code floors}. */
  public static Builder builder(Objlog log, ConsumerFloors floors) {
    return new Builder(log, floors);
  }

  /**
   * The consumer that holds a partition's retention back: the one with the lowest applied floor.
   *
   * <p>Thread-safety: immutable.
   *
   * @param consumer its id
   * @param beforeLsn its applied floor (u64)
   * @param heldFor how long it has held retention there without advancing
   * @param heldBytes bytes of committed segments it alone keeps (what retention would trim without it)
   */
  public record Holder(String consumer, long beforeLsn, Duration heldFor, long heldBytes) {}

  /**
   * What one run did.
   *
   * @param partition the partition
   * @param allowedBefore the LSN below which the policy allows trimming now (u64), or empty when
   *     it allows nothing (no consumer registered, or no readable record)
   * @param request the request this run made, or empty when retention already reaches it
   * @param heldBy who holds retention back, when a consumer is behind
   * @param expired consumers ignored because they have not advanced for the expiry time
   */
  public record Outcome(int partition, Optional<Long> allowedBefore, Optional<RetentionRequest> request,
      Optional<Holder> heldBy, List<String> expired) {
    public Outcome {
      expired = List.copyOf(expired);
    }
  }

  /**
   * Advances retention of {@code partition} to what the policy allows: reads the head, the
   * consumer floors and the newest snapshot, and writes a retention request (with the previous
   * policy version plus one) when that goes beyond what is requested or applied.
   *
   * @throws dev.objlog.store.StoreException if the store failed; the next run tries again
   */
  public Outcome run(int partition) {
    PartitionState state = partitions.computeIfAbsent(partition, PartitionState::new);
    synchronized (state) {
      return state.run();
    }
  }

  /** The holder the last run of {@code partition} found, if a consumer held it back. */
  public Optional<Holder> heldBy(int partition) {
    PartitionState state = partitions.get(partition);
    return state == null ? Optional.empty() : Optional.ofNullable(state.lastHolder);
  }

  /**
   * The policy as a gate: the lowest applied floor of the consumers not expired (as the last run
   * saw them), minus the keep window; {@code -1L} (hold nothing) when no consumer is registered.
   * Reads the floors each time it is asked.
   */
  public RetentionGate gate() {
    return new RetentionGate() {
      @Override
      public long retainableBefore(int partition) {
        PartitionState state = partitions.get(partition);
        List<ConsumerFloor> current = floors.floors(partition);
        long lowest = -1L;
        for (ConsumerFloor f : current) {
          if ((state == null || !state.isExpired(f)) && Long.compareUnsigned(f.beforeLsn(), lowest) < 0) {
            lowest = f.beforeLsn();
          }
        }
        return lowest == -1L ? -1L : minusKeep(lowest);
      }

      @Override
      public String toString() {
        return "UntilConsumedRetention.gate[" + log.streamId() + "]";
      }
    };
  }

  private long minusKeep(long lsn) {
    return Long.compareUnsigned(lsn, keepRecords) > 0 ? lsn - keepRecords : 0;
  }

  private static long min(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? a : b;
  }

  /** One partition's view of its consumers across runs. Guarded by its own monitor. */
  private final class PartitionState {
    final int partition;
    /** Per consumer: the floor last seen and the ticker reading when it was first seen there. */
    final Map<String, long[]> seen = new HashMap<>();
    /** Consumers already warned about, with the floor they were warned at. */
    final Map<String, Long> warned = new HashMap<>();
    final AtomicLong heldSeconds;
    final AtomicLong heldBytes;
    volatile @Nullable Holder lastHolder;

    PartitionState(int partition) {
      this.partition = partition;
      Tags tags = Tags.of(MetricNames.TAG_STREAM, log.streamId(), MetricNames.TAG_PARTITION,
          Integer.toUnsignedString(partition));
      this.heldSeconds = meters.gauge(MetricNames.RETENTION_CONSUMER_HELD_SECONDS, tags, new AtomicLong());
      this.heldBytes = meters.gauge(MetricNames.RETENTION_CONSUMER_HELD_BYTES, tags, new AtomicLong());
    }

    /** Whether {@code f} has stayed at its floor for the expiry time (read by the gate too). */
    synchronized boolean isExpired(ConsumerFloor f) {
      if (expireAfter == null) {
        return false;
      }
      long[] s = seen.get(f.consumer());
      return s != null && s[0] == f.beforeLsn() && ticker.read() - s[1] >= Elapsed.nanos(expireAfter);
    }

    Outcome run() {
      long now = ticker.read();
      Optional<PartitionHead> found = log.head(partition);
      long nextLsn = found.map(PartitionHead::nextLsn).orElse(0L);
      List<ConsumerFloor> current = floors.floors(partition);
      Map<String, long[]> next = new HashMap<>();
      for (ConsumerFloor f : current) {
        long[] s = seen.get(f.consumer());
        // a consumer holds (and its silence counts) only from when it is seen behind at a floor
        boolean caughtUp = Long.compareUnsigned(f.beforeLsn(), nextLsn) >= 0;
        next.put(f.consumer(), s != null && s[0] == f.beforeLsn() && !caughtUp ? s : new long[] {f.beforeLsn(), now});
      }
      seen.clear();
      seen.putAll(next);
      if (current.isEmpty() || found.isEmpty()) {
        return nothingHeld(Optional.empty(), List.of());
      }
      PartitionHead head = found.get();
      // the lowest and second-lowest floors of the live consumers; floors above next mean "all"
      ConsumerFloor lowest = null;
      long without = nextLsn;
      List<String> expired = new java.util.ArrayList<>();
      for (ConsumerFloor f : current) {
        boolean behind = Long.compareUnsigned(f.beforeLsn(), nextLsn) < 0;
        if (behind && isExpired(f)) {
          expired.add(f.consumer());
          warnOnce(f, "consumer '" + f.consumer() + "' of stream " + log.streamId() + " partition "
              + Integer.toUnsignedString(partition) + " has not advanced from LSN " + Long.toUnsignedString(f.beforeLsn())
              + " for " + expireAfter + " and no longer holds retention back (expire-after); it may meet trimmed records");
          continue;
        }
        long floor = min(f.beforeLsn(), nextLsn);
        if (lowest == null || Long.compareUnsigned(floor, min(lowest.beforeLsn(), nextLsn)) < 0) {
          if (lowest != null) {
            without = min(without, min(lowest.beforeLsn(), nextLsn));
          }
          lowest = f;
        } else {
          without = min(without, floor);
        }
      }
      // every consumer expired: nothing holds, but the keep window still applies
      long allowed = minusKeep(lowest == null ? nextLsn : min(lowest.beforeLsn(), nextLsn));
      Optional<SnapshotMarker> snapshot = log.latestSnapshot(partition);
      if (snapshot.isPresent()) {
        allowed = min(allowed, snapshot.get().replayFromLsn());
      }
      Holder holder = null;
      if (lowest != null && Long.compareUnsigned(lowest.beforeLsn(), nextLsn) < 0) {
        long floor = lowest.beforeLsn();
        Duration heldFor = Duration.ofNanos(Math.max(0, now - seen.get(lowest.consumer())[1]));
        holder = new Holder(lowest.consumer(), floor, heldFor, bytesBetween(floor, without));
        if (heldFor.compareTo(warnAfter) >= 0) {
          warnOnce(lowest, "consumer '" + lowest.consumer() + "' of stream " + log.streamId() + " partition "
              + Integer.toUnsignedString(partition) + " has held retention at LSN " + Long.toUnsignedString(floor)
              + " for " + heldFor + " (" + holder.heldBytes() + " bytes); retention waits for it"
              + (expireAfter == null ? " without limit (set an expiry to stop waiting)" : " until " + expireAfter));
        }
      }
      warned.keySet().retainAll(seen.keySet());
      lastHolder = holder;
      heldSeconds.set(holder == null ? 0 : holder.heldFor().toSeconds());
      heldBytes.set(holder == null ? 0 : holder.heldBytes());
      return new Outcome(partition, Optional.of(allowed), request(head, allowed), Optional.ofNullable(holder), expired);
    }

    private Outcome nothingHeld(Optional<Long> allowed, List<String> expired) {
      lastHolder = null;
      heldSeconds.set(0);
      heldBytes.set(0);
      return new Outcome(partition, allowed, Optional.empty(), Optional.empty(), expired);
    }

    private void warnOnce(ConsumerFloor f, String message) {
      Long at = warned.get(f.consumer());
      if (at == null || at != f.beforeLsn()) {
        warned.put(f.consumer(), f.beforeLsn());
        warnings.accept("objlog retention: " + message);
      }
    }

    /** Bytes of the committed segments holding records in [{@code from}, {@code to}). */
    private long bytesBetween(long from, long to) {
      long bytes = 0;
      long at = from;
      while (Long.compareUnsigned(at, to) < 0) {
        Optional<SegmentPage> page = log.segments(partition, at, 256);
        if (page.isEmpty() || page.get().segments().isEmpty()) {
          break;
        }
        for (SegmentRef s : page.get().segments()) {
          if (Long.compareUnsigned(s.baseLsn(), to) >= 0) {
            return bytes;
          }
          bytes += s.sizeBytes();
        }
        if (!page.get().hasMore()) {
          break;
        }
        at = page.get().nextLsn();
      }
      return bytes;
    }

    /** Requests {@code allowed} when it goes beyond what is requested or applied. */
    private Optional<RetentionRequest> request(PartitionHead head, long allowed) {
      Optional<RetentionRequest> pending = log.retentionRequest(partition);
      long version = head.appliedRetentionVersion();
      long reached = head.oldestLsn();
      if (Long.compareUnsigned(head.appliedRetentionLsn(), reached) > 0) {
        reached = head.appliedRetentionLsn();
      }
      long before = allowed;
      if (pending.isPresent()) {
        RetentionRequest p = pending.get();
        if (Long.compareUnsigned(p.policyVersion(), version) > 0) {
          version = p.policyVersion();
          if (Long.compareUnsigned(p.beforeLsn(), reached) > 0) {
            reached = p.beforeLsn(); // not applied yet: the writer will take it as far as it may
          }
        }
        // The mailbox never moves back: a request the writer clamped (or one asking for more) is
        // asked again at its own LSN, and the writer clamps it to this policy's gate.
        if (Long.compareUnsigned(p.beforeLsn(), before) > 0) {
          before = p.beforeLsn();
        }
      }
      if (Long.compareUnsigned(allowed, reached) <= 0) {
        return Optional.empty();
      }
      try {
        RetentionRequest made = log.requestRetention(partition, version + 1, before);
        return made.outcome() == RetentionRequest.Outcome.CREATED || made.outcome() == RetentionRequest.Outcome.ADVANCED
            ? Optional.of(made) : Optional.empty();
      } catch (RetentionRegressionException e) {
        return Optional.empty(); // another process requested at the same time; the next run looks again
      }
    }
  }

  /**
   * Builds an {@link UntilConsumedRetention}.
   *
   * <p>Thread-safety: for one thread.
   */
  public static final class Builder {
    private final Objlog log;
    private final ConsumerFloors floors;
    private long keepRecords;
    private @Nullable Duration expireAfter;
    private Duration warnAfter = Duration.ofMinutes(15);
    private @Nullable Ticker ticker;
    private @Nullable Consumer<String> warnings;

    private Builder(Objlog log, ConsumerFloors floors) {
      this.log = Objects.requireNonNull(log, "log");
      this.floors = Objects.requireNonNull(floors, "floors");
    }

    /** Records to keep below the lowest applied floor (default 0: trim all that is consumed). */
    public Builder keepRecords(long value) {
      if (value < 0) {
        throw new InvalidArgumentException("keepRecords must be 0 or more, was " + value);
      }
      this.keepRecords = value;
      return this;
    }

    /**
     * Stops waiting for a consumer that has not advanced for {@code value} while behind (default
     * null: wait forever). Opt-in, because the consumer then meets trimmed records.
     */
    public Builder expireAfter(@Nullable Duration value) {
      if (value != null && (value.isNegative() || value.isZero())) {
        throw new InvalidArgumentException("expireAfter must be positive, was " + value);
      }
      this.expireAfter = value;
      return this;
    }

    /** How long a consumer may hold retention before a warning names it (default 15 minutes). */
    public Builder warnAfter(Duration value) {
      Objects.requireNonNull(value, "warnAfter");
      if (value.isNegative()) {
        throw new InvalidArgumentException("warnAfter must not be negative, was " + value);
      }
      this.warnAfter = value;
      return this;
    }

    /** Measures how long consumers hold retention; default the log's ticker. */
    public Builder ticker(Ticker value) {
      this.ticker = Objects.requireNonNull(value, "ticker");
      return this;
    }

    /** Where warnings go; default the {@code System.Logger} of this class at WARNING. */
    public Builder warnings(Consumer<String> value) {
      this.warnings = Objects.requireNonNull(value, "warnings");
      return this;
    }

    public UntilConsumedRetention build() {
      return new UntilConsumedRetention(this);
    }
  }
}
