package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.StaleWriterException;
import dev.objlog.TimestampOrderException;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.lifecycle.Reclaimer;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.store.Sleeper;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ListPage;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.SteppedScheduler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Deterministic simulation (issue #9): one seed drives a writer, readers, retention, the reclaimer
 * (reclaim and scrub) and takeovers by a new writer (from the same log or from a second log, as a
 * second process would), against the memory store behind the fault decorator (errors before the
 * effect, lost replies after it, timeouts, torn uploads, latency), entirely on virtual time and on
 * the test's thread: the logs' scheduler is a {@link SteppedScheduler} whose due tasks (batch
 * timers, seals, uploads, publishes, retries) run only when the simulation steps it, in an order
 * the seed chooses; the decorator's and the logs' {@link Sleeper} advance a {@link MutableClock};
 * segment uuids, writer ids and reclaimer owner ids come from the seed. Nothing else runs, so a
 * seed replays bit for bit, which {@link #sameSeedReplaysTheSameTraceAndOtherSeedsDiffer} proves
 * by hashing the event trace.
 *
 * <p>After every step, through a fault-free view of the same bucket: LSNs are dense; every
 * acknowledged record (committed future completed) is readable exactly once at its LSN until
 * retention removes it; each epoch has one writer and epochs never interleave; reading every
 * record from the oldest LSN succeeds (so the reclaimer deleted no referenced segment) and the
 * catalog passes full tree verification.
 */
class SimulationTests {
  static final int STEPS = 40;
  /** Background tasks a flush may take before the simulation calls it a livelock. */
  static final long MAX_TASKS_PER_WAIT = 200_000;

  @Test
  @Timeout(900)
  void seededSimulationsKeepEveryInvariant() {
    var fixed = Budgets.fixedSeed(Budgets.SIM_SEED);
    int seeds = fixed.isPresent() ? 1 : Budgets.simulationSeeds();
    long first = fixed.orElse(1);
    Map<String, Integer> totals = new TreeMap<>();
    long started = System.nanoTime();
    long tasks = 0;
    for (long seed = first; seed < first + seeds; seed++) {
      tasks += runReportingReplay(seed, totals).backgroundTasks;
    }
    System.out.printf("simulation: %d seeds x %d steps in %d ms, %d background tasks, totals %s%n", seeds, STEPS,
        (System.nanoTime() - started) / 1_000_000, tasks, totals);
  }

  @Test
  @Timeout(300)
  void sameSeedReplaysTheSameTraceAndOtherSeedsDiffer() {
    Map<String, String> traces = new TreeMap<>();
    for (long seed = 1; seed <= 20; seed++) {
      String first = runReportingReplay(seed, new TreeMap<>()).traceHash();
      String again = runReportingReplay(seed, new TreeMap<>()).traceHash();
      assertThat(again).as("trace of seed %d replayed", seed).isEqualTo(first);
      String earlier = traces.put(first, "seed " + seed);
      assertThat(earlier).as("seed %d has the same trace as %s", seed, earlier).isNull();
    }
  }

  private static Run runReportingReplay(long seed, Map<String, Integer> totals) {
    Run run = new Run(seed, totals);
    try {
      run.run();
      return run;
    } catch (Throwable t) {
      throw new AssertionError("simulation seed " + seed + " failed: " + t
          + "\n  replay: OBJLOG_SIM_SEED=" + seed + " ./mvnw -B -o verify -pl objlog-engine -am"
          + " -Dtest=SimulationTests -Dsurefire.failIfNoSpecifiedTests=false", t);
    }
  }

  /** One seeded run. Single-threaded: everything, background work included, runs on the caller. */
  static final class Run {
    private final long seed;
    private final SplittableRandom random;
    private final Map<String, Integer> totals;
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final Sleeper virtual = d -> {
      if (!d.isNegative()) {
        clock.advance(d);
      }
    };
    private final MemoryObjectStore bucket = new MemoryObjectStore(clock);
    private final FaultInjectingObjectStore faulty;
    private final SteppedScheduler scheduler;
    /** Segment uuids of both logs: one generator, since the two logs share one run. */
    private final Random ids;
    private final Map<String, Long> acked = new ConcurrentHashMap<>();
    private final List<String> events = new ArrayList<>();
    private final String stream = "sim/orders";
    private long backgroundTasks;
    private Objlog log;
    private Objlog otherLog;
    private Objlog checkerLog;
    private PartitionWriter writer;
    private String writerName;
    private long epoch;
    private int incarnation;
    private long seq;
    private long lastTimestamp;
    private long policyVersion;
    /** The last timestamp the current writer accepted (its floor); MIN_VALUE before its first. */
    private long writerFloor = Long.MIN_VALUE;

    Run(long seed, Map<String, Integer> totals) {
      this.seed = seed;
      this.random = new SplittableRandom(seed);
      this.totals = totals;
      this.scheduler = new SteppedScheduler(clock, random.split());
      this.ids = new Random(random.nextLong());
      double p = 0.01 + random.nextDouble() * 0.05;
      faulty = FaultInjectingObjectStore.builder(bucket).seed(seed)
          .latency(Duration.ofMillis(random.nextInt(20)), Duration.ofMillis(random.nextInt(50)))
          .timeout(Duration.ofSeconds(10))
          .faultProbability(Fault.ERROR_BEFORE, p)
          .faultProbability(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, p)
          .faultProbability(Operation.PUT_IF_ABSENT, Fault.LOST_REPLY, p)
          .faultProbability(Operation.UPLOAD, Fault.TORN_UPLOAD, p)
          .faultProbability(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, p / 2)
          .faultProbability(Operation.DELETE, Fault.LOST_REPLY, p)
          .sleeper(virtual).clock(clock).build();
    }

    void run() throws Exception {
      ObjlogOptions options = ObjlogOptions.builder().clock(clock).sleeper(virtual).scheduler(scheduler)
          .random(ids).catalogLimits(2, 2).build();
      log = Objlog.open(faulty, stream, options);
      otherLog = Objlog.open(faulty, stream, options);
      checkerLog = Objlog.open(bucket, stream, ObjlogOptions.builder().catalogLimits(2, 2).build());
      try {
        takeOver();
        for (int step = 0; step < STEPS; step++) {
          int what = random.nextInt(100);
          if (what < 45) {
            append(1 + random.nextInt(5));
          } else if (what < 65) {
            flush();
          } else if (what < 72) {
            retention();
          } else if (what < 80) {
            reclaim();
          } else if (what < 86) {
            takeOver();
          } else if (what < 92) {
            Duration jump = Duration.ofMinutes(random.nextInt(180));
            clock.advance(jump);
            count("clock jump", jump.toMinutes() + " min");
          } else if (what < 96) {
            regressTimestamp();
          } else {
            read();
          }
          // Background work between foreground steps: the seed decides how far it gets.
          scheduler.run(random.nextInt(12));
          check(step);
        }
        if (writer != null) {
          flush();
          check(STEPS);
        }
      } finally {
        if (writer != null) {
          writer.abort();
        }
        log.close();
        otherLog.close();
        checkerLog.close();
      }
      backgroundTasks = scheduler.executed();
      count("injected faults", faulty.injectedFaults().size());
      events.add("faults " + faulty.injectedFaults());
      events.add("end at " + clock.instant() + " after " + backgroundTasks + " background tasks");
      for (String after = ""; after != null; ) {
        ListPage page = bucket.list("", after, 1000);
        for (ObjectMetadata m : page.entries()) {
          events.add("object " + m.key() + " " + m.size());
        }
        after = page.nextAfterKey();
      }
    }

    /** SHA-256 of every event of the run, in order: operations, outcomes, acknowledgements, faults, final bucket. */
    String traceHash() {
      try {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String e : events) {
          sha.update(e.getBytes(StandardCharsets.UTF_8));
          sha.update((byte) '\n');
        }
        return HexFormat.of().formatHex(sha.digest());
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new AssertionError(e);
      }
    }

    private void count(String what) {
      count(what, "");
    }

    /** Counts {@code what} in the totals and records it, with its detail, in the trace. */
    private void count(String what, String detail) {
      count(what, 1);
      events.set(events.size() - 1, what + (detail.isEmpty() ? "" : " " + detail));
    }

    private void count(String what, int n) {
      synchronized (totals) {
        totals.merge(what, n, Integer::sum);
      }
      events.add(what);
    }

    /** Steps the background work until {@code future} is done (virtual time moves as needed). */
    private void await(CompletableFuture<?> future) {
      scheduler.runUntilDone(future, MAX_TASKS_PER_WAIT);
    }

    private void takeOver() {
      PartitionWriter old = writer;
      String newName = "w" + incarnation++;
      // Half the takeovers come from a second log on the same bucket, as another process would.
      Objlog from = random.nextBoolean() ? log : otherLog;
      byte[] writerId = new byte[16];
      random.nextBytes(writerId);
      writerId[0] |= 1;
      WriterOptions writerOptions = WriterOptions.builder()
          .writerId(writerId)
          .batch(Duration.ofMillis(random.nextInt(3) * 10L), 1 << 20, 1 + random.nextInt(4))
          .backpressure(new WriterOptions.BackpressurePolicy(2 + random.nextInt(6), 1L << 30, true))
          .pipeline(WriterOptions.Pipeline.DEFAULT.withSealParallelism(1 + random.nextInt(2)))
          .build();
      try {
        writer = from.openWriter(0, writerOptions);
        epoch = writer.state().committed().writerEpoch();
        writerName = newName;
        seq = 0;
        writerFloor = Long.MIN_VALUE;
        count("takeover", newName + " epoch " + Long.toUnsignedString(epoch) + (from == log ? "" : " (second log)"));
      } catch (ObjlogException e) {
        count("takeover failed: " + e.getClass().getSimpleName());
        // The fence may or may not have moved (an ambiguous CAS); keep the old writer if it is
        // still healthy: if it was fenced after all, its next flush fails stale and it is replaced.
        writer = old != null && old.failure().isEmpty() ? old : null;
        return;
      }
      if (old != null) {
        // The superseded writer must not publish again: its next flush fails stale (or earlier cause).
        String name = writerName;
        Throwable t = catching(() -> {
          old.append(LogRecord.of(lastTimestamp, "stale-" + name)).committed()
              .thenAccept(h -> acked.put("stale-" + name, -2L));
          awaitResult(old.flushAsync());
        });
        if (t != null && !(t instanceof ObjlogException)) {
          throw new AssertionError("old writer flush threw untyped " + t, t);
        }
        if (writer != null && t == null) {
          throw new AssertionError("superseded writer flushed successfully after takeover");
        }
        if (t instanceof StaleWriterException) {
          count("old writer stale");
        }
        old.abort();
      }
    }

    /** Awaits a flush on virtual time; its failure is rethrown as the cause itself. */
    private void awaitResult(CompletableFuture<?> future) throws Throwable {
      await(future);
      try {
        future.get();
      } catch (ExecutionException e) {
        throw e.getCause();
      }
    }

    private void append(int n) {
      if (writer == null) {
        takeOver();
        return;
      }
      for (int i = 0; i < n; i++) {
        lastTimestamp = Math.max(lastTimestamp, clock.millis());
        String v = LogChecker.value(writerName, epoch, seq++);
        try {
          AppendResult r = writer.append(LogRecord.of(lastTimestamp, v));
          r.committed().thenAccept(h -> {
            acked.put(v, r.lsn());
            events.add("ack " + v + " @" + Long.toUnsignedString(r.lsn()));
          });
          writerFloor = lastTimestamp;
          count("append", v + " @" + Long.toUnsignedString(r.lsn()));
        } catch (WriterBackpressureException e) {
          // The pending budget is full until background work catches up; the record was refused.
          count("append refused: backpressure");
          return;
        } catch (ObjlogException e) {
          count("append refused: " + e.getClass().getSimpleName());
          replaceIfFailed();
          return;
        }
      }
    }

    private void flush() {
      if (writer == null) {
        takeOver();
        return;
      }
      Throwable t = catching(() -> awaitResult(writer.flushAsync()));
      if (t == null) {
        count("flush", "next " + writer.state().nextLsn());
        return;
      }
      if (!(t instanceof ObjlogException)) {
        throw new AssertionError("flush failed untyped: " + t, t);
      }
      count("flush failed: " + t.getClass().getSimpleName());
      replaceIfFailed();
    }

    /** A failed writer is terminal: stop it and let a new incarnation take over. */
    private void replaceIfFailed() {
      if (writer != null && writer.failure().isPresent()) {
        writer.abort();
        writer = null;
        takeOver();
      }
    }

    private void regressTimestamp() {
      // A new writer's floor is the last *committed* timestamp, which the driver cannot know when
      // the previous incarnation failed; test regressions against this writer's own appends.
      if (writer == null || writerFloor == Long.MIN_VALUE) {
        return;
      }
      Throwable t = catching(() -> writer.append(LogRecord.of(writerFloor - 1, "regressed")));
      if (t instanceof WriterClosedException && writer.failure().isPresent()) {
        // The writer went terminal in the background (an upload outlasted segmentFinalize after a
        // clock jump); it refuses every append, this one included, and is replaced next step.
        count("timestamp regression refused by a failed writer");
        return;
      }
      assertThat(t).as("timestamp regression").isInstanceOf(TimestampOrderException.class);
      count("timestamp regression refused");
    }

    private void retention() {
      var head = checkerLog.head(0);
      if (head.isEmpty() || writer == null || head.get().nextLsn() == 0) {
        return;
      }
      long before = random.nextLong(head.get().nextLsn() + 1);
      Throwable t = catching(() -> {
        log.requestRetention(0, ++policyVersion, before);
        writer.applyRetention();
      });
      if (t != null && !(t instanceof ObjlogException)) {
        throw new AssertionError("retention threw untyped " + t, t);
      }
      count(t == null ? "retention" : "retention failed: " + t.getClass().getSimpleName());
      if (t != null) {
        replaceIfFailed();
      }
    }

    private void reclaim() {
      byte[] owner = new byte[16];
      random.nextBytes(owner);
      owner[0] |= 1;
      ReclaimerOptions options = ReclaimerOptions.builder().deleteDelay(Duration.ofHours(1)).clock(clock)
          .ownerId(HexFormat.of().formatHex(owner)).deleteExecutor(new InlineExecutor()).build();
      try (Reclaimer reclaimer = Reclaimer.create(log, options)) {
        for (boolean scrub : new boolean[] {false, true}) {
          Throwable t = catching(() -> {
            if (scrub) {
              reclaimer.scrub(0);
            } else {
              reclaimer.reclaim(0);
            }
          });
          if (t != null && !(t instanceof ObjlogException)) {
            throw new AssertionError("reclaimer threw untyped " + t, t);
          }
          count((scrub ? "scrub" : "reclaim") + (t == null ? "" : " failed: " + t.getClass().getSimpleName()));
        }
      }
      clock.advance(Duration.ofMinutes(30 + random.nextInt(60)));
    }

    private void read() {
      Throwable t = catching(() -> log.reader().partition(0).read(0, 100));
      if (t != null && !(t instanceof ObjlogException)) {
        throw new AssertionError("read threw untyped " + t, t);
      }
      count(t == null ? "read" : "read failed: " + t.getClass().getSimpleName());
    }

    private void check(int step) {
      if (checkerLog.head(0).isEmpty()) {
        return;
      }
      try {
        Map<String, Long> acknowledged = new java.util.HashMap<>(acked);
        assertThat(acknowledged).as("a superseded writer's record was acknowledged").doesNotContainValue(-2L);
        LogChecker.Scan scan = LogChecker.scan(checkerLog, 0);
        LogChecker.check(scan, acknowledged);
        LogChecker.verifyTree(checkerLog, bucket, 0);
      } catch (Throwable t) {
        int n = events.size();
        throw new AssertionError("invariant broken after step " + step + "; last events "
            + events.subList(Math.max(0, n - 12), n) + ": " + t.getMessage(), t);
      }
    }

    interface Action {
      void run() throws Throwable;
    }

    static Throwable catching(Action a) {
      try {
        a.run();
        return null;
      } catch (Throwable t) {
        return t;
      }
    }
  }

  /** Runs each task on the submitting thread, so the reclaimer's parallel deletes stay on the simulation's thread. */
  static final class InlineExecutor extends AbstractExecutorService {
    private boolean shutdown;

    @Override
    public void execute(Runnable command) {
      command.run();
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutdown = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
