package dev.objlog.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.RetentionGate;
import dev.objlog.RetentionRequest;
import dev.objlog.SegmentPage;
import dev.objlog.SnapshotMarker;
import dev.objlog.WriterOptions;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.ReadResult;
import dev.objlog.replica.ConsumerRegistry;
import dev.objlog.replica.CursorStore;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.SteppedScheduler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deterministic simulation of until-consumed retention (issue 22), on virtual time: one seed
 * drives a writer, two consumers at different speeds (a fast in-process one publishing to a
 * {@link ConsumerRegistry}, a slow one keeping a bucket checkpoint, read through {@link
 * ConsumerFloors#inBucket}), the {@link UntilConsumedRetention} policy, snapshot markers, and
 * retention requests written by "another process" with no gate (as a Go process would), which
 * only the writer's clamp (the policy's gate held on the writer's log) stands against.
 *
 * <p>The oracle, after every step, through a second log on the same bucket: no record any
 * registered consumer has not applied is trimmed (the head's oldest LSN never passes a consumer's
 * floor or the newest snapshot's replay LSN), and before a consumer advances, every record it is
 * about to apply is still readable. At the end both consumers catch up and retention must follow
 * them to the last LSN the keep window allows.
 */
class UntilConsumedRetentionSimulationTests {
  private static final int SEEDS = 12;
  private static final int STEPS = 150;
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  @Timeout(60)
  void noConsumerEverLosesARecordItHasNotAppliedAndRetentionCatchesUp() {
    for (long seed = 1; seed <= SEEDS; seed++) {
      new Run(seed, true).run();
    }
  }

  @Test
  @Timeout(60)
  void sameSeedReplaysTheSameTrace() {
    assertThat(new Run(7, true).run()).isEqualTo(new Run(7, true).run());
  }

  /** The oracle has teeth: a writer that applies the other process's requests unclamped is caught. */
  @Test
  @Timeout(60)
  void oracleCatchesAWriterThatDoesNotClampToTheConsumers() {
    List<String> passed = new ArrayList<>();
    for (long seed = 1; seed <= SEEDS; seed++) {
      try {
        new Run(seed, false).run();
        passed.add("seed " + seed);
      } catch (AssertionError e) {
        assertThat(e.getMessage()).contains("unapplied records are kept");
        return;
      }
    }
    throw new AssertionError("no seed caught the unclamped writer: " + passed);
  }

  private static final class Run {
    final long seed;
    /** Whether the writer's log holds the policy's gate (the clamp under test). */
    final boolean holdOnWriter;
    final SplittableRandom random;
    final MutableClock elapsed = new MutableClock(START);
    final SteppedScheduler scheduler;
    final MemoryObjectStore bucket = new MemoryObjectStore(elapsed);
    final List<String> trace = new ArrayList<>();
    long fast;
    long slow;
    CursorStore.Version slowVersion = CursorStore.Version.ABSENT;
    long lastTimestamp;
    long rogueVersion;

    Run(long seed, boolean holdOnWriter) {
      this.seed = seed;
      this.holdOnWriter = holdOnWriter;
      this.random = new SplittableRandom(seed);
      this.scheduler = new SteppedScheduler(elapsed, random.split());
    }

    List<String> run() {
      ObjlogOptions options = ObjlogOptions.builder().clock(elapsed)
          .ticker(() -> Duration.between(START, elapsed.instant()).toNanos())
          .sleeper(d -> elapsed.advance(d.isNegative() ? Duration.ZERO : d))
          .scheduler(scheduler.pool("writer-scheduler")).storeIoExecutor(scheduler.pool("writer-io"))
          .meterRegistry(new SimpleMeterRegistry())
          .catalogLimits(2, 2).build();
      long keep = random.nextInt(4);
      try (Objlog log = Objlog.open(bucket, "sim/until-consumed", options);
          Objlog other = Objlog.open(bucket, "sim/until-consumed");
          Objlog checker = Objlog.open(bucket, "sim/until-consumed")) {
        ConsumerRegistry registry = ConsumerRegistry.on(log);
        CursorStore slowCursor = CursorStore.inBucket(log, "slow");
        List<String> warnings = new ArrayList<>();
        UntilConsumedRetention policy = UntilConsumedRetention.builder(log,
                registry.and(ConsumerFloors.inBucket(log)))
            .keepRecords(keep).warnAfter(Duration.ofMinutes(5)).warnings(warnings::add).build();
        RetentionGate.Hold hold = holdOnWriter ? log.holdRetention(policy.gate()) : log.holdRetention(p -> -1L);
        PartitionWriter writer = log.openWriter(0, WriterOptions.builder()
            .batch(Duration.ZERO, 1 << 20, 1 + random.nextInt(4))
            // room for every segment one step cuts, so an append never waits for the stepped pools
            .backpressure(new WriterOptions.BackpressurePolicy(16, 1L << 30, true)).build());
        registry.publish("fast", 0, 0);
        saveSlow(slowCursor, 0);
        for (int step = 0; step < STEPS; step++) {
          int what = random.nextInt(100);
          if (what < 30) {
            append(writer, 1 + random.nextInt(6));
          } else if (what < 50) {
            fast = advance(checker, "fast", fast, random.nextInt(12));
            registry.publish("fast", 0, fast);
          } else if (what < 56) {
            slow = advance(checker, "slow", slow, random.nextInt(3));
            saveSlow(slowCursor, slow);
          } else if (what < 72) {
            UntilConsumedRetention.Outcome o = policy.run(0);
            trace.add("policy " + o.allowedBefore() + " " + o.request().map(RetentionRequest::beforeLsn)
                + " " + o.heldBy().map(UntilConsumedRetention.Holder::consumer));
          } else if (what < 86) {
            var r = writer.applyRetention();
            trace.add("apply " + r.applied() + " " + r.oldestLsn());
          } else if (what < 92) {
            rogueRequest(other, checker);
          } else if (what < 96) {
            snapshot(log, checker);
          } else {
            elapsed.advance(Duration.ofMinutes(1 + random.nextInt(3)));
          }
          check(checker, "step " + step);
        }
        // everyone catches up; a snapshot at the end lets retention go all the way
        append(writer, 1);
        long next = checker.head(0).orElseThrow().nextLsn();
        fast = advance(checker, "fast", fast, next);
        registry.publish("fast", 0, fast);
        slow = advance(checker, "slow", slow, next);
        saveSlow(slowCursor, slow);
        log.recordSnapshot(0, next - 1, "snapshots/" + (next - 1));
        policy.run(0);
        writer.applyRetention();
        check(checker, "after catching up");
        long target = next - Math.min(keep, next);
        assertThat(checker.head(0).orElseThrow().oldestLsn())
            .as("seed %d: retention caught up with both consumers (keep %d) at %d", seed, keep, target)
            .isEqualTo(segmentStart(checker, target, next));
        assertThat(policy.heldBy(0)).as("seed %d: nothing holds retention once all caught up", seed).isEmpty();
        trace.add("warnings " + warnings.size());
        hold.close();
        writer.abort();
        return trace;
      }
    }

    private void append(PartitionWriter writer, int n) {
      for (int i = 0; i < n; i++) {
        lastTimestamp = Math.max(lastTimestamp, elapsed.millis());
        writer.append(LogRecord.of(lastTimestamp, "r" + seed + "-" + trace.size() + "-" + i));
      }
      scheduler.runUntilDone(writer.flushAsync(), 100_000);
      trace.add("append " + n + " -> " + writer.state().committed().nextLsn());
    }

    /** Applies {@code by} more records (at most up to the committed end), first reading them all. */
    private long advance(Objlog checker, String consumer, long from, long by) {
      long next = checker.head(0).map(PartitionHead::nextLsn).orElse(0L);
      long to = Math.min(next, from + by);
      long at = from;
      while (at < to) {
        ReadResult r = checker.reader().partition(0).read(at, (int) Math.min(64, to - at), Freshness.LATEST);
        assertThat(r.records()).as("seed %d: %s reads LSN %d before applying it", seed, consumer, at).isNotEmpty();
        assertThat(r.records().get(0).lsn()).as("seed %d: %s's next record", seed, consumer).isEqualTo(at);
        at = r.nextLsn();
      }
      trace.add(consumer + " " + from + " -> " + to);
      return to;
    }

    private void saveSlow(CursorStore cursors, long lsn) {
      slowVersion = cursors.save(CursorCheckpoint.of("sim/until-consumed", 0, lsn), slowVersion);
    }

    /** Another process asks for everything committed, with no gate: only the writer's clamp protects. */
    private void rogueRequest(Objlog other, Objlog checker) {
      long next = checker.head(0).map(PartitionHead::nextLsn).orElse(0L);
      long version = other.retentionRequest(0).map(RetentionRequest::policyVersion).orElse(0L);
      long applied = checker.head(0).map(PartitionHead::appliedRetentionVersion).orElse(0L);
      long before = other.retentionRequest(0).map(RetentionRequest::beforeLsn).orElse(0L);
      other.requestRetention(0, Math.max(version, applied) + 1, Math.max(before, next));
      trace.add("rogue request " + next);
    }

    private void snapshot(Objlog log, Objlog checker) {
      long next = checker.head(0).map(PartitionHead::nextLsn).orElse(0L);
      long last = log.latestSnapshot(0).map(SnapshotMarker::throughLsn).orElse(-1L);
      if (next == 0 || last >= next - 1) {
        return;
      }
      long through = last + 1 + random.nextLong(next - 1 - last);
      log.recordSnapshot(0, through, "snapshots/" + through);
      trace.add("snapshot " + through);
    }

    private void check(Objlog checker, String when) {
      Optional<PartitionHead> head = checker.head(0);
      if (head.isEmpty()) {
        return;
      }
      long oldest = head.get().oldestLsn();
      assertThat(oldest).as("seed %d %s: the fast consumer's unapplied records are kept", seed, when)
          .isLessThanOrEqualTo(fast);
      assertThat(oldest).as("seed %d %s: the slow consumer's unapplied records are kept", seed, when)
          .isLessThanOrEqualTo(slow);
      Optional<SnapshotMarker> snapshot = checker.latestSnapshot(0);
      assertThat(oldest).as("seed %d %s: nothing the newest snapshot does not cover is trimmed", seed, when)
          .isLessThanOrEqualTo(snapshot.map(SnapshotMarker::replayFromLsn).orElse(Long.MAX_VALUE));
    }

    /** Where retention to {@code lsn} leaves the oldest record: the start of its segment. */
    private static long segmentStart(Objlog checker, long lsn, long next) {
      if (lsn >= next) {
        return next;
      }
      Optional<SegmentPage> page = checker.segments(0, lsn, 1);
      return page.orElseThrow().segments().get(0).baseLsn();
    }
  }
}
