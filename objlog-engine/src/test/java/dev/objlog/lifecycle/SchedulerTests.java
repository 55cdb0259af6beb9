package dev.objlog.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.testing.LogFixture;
import dev.objlog.testing.LogFixture.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The maintenance scheduler: concurrency, continuations, retries, timeouts, events. */
class SchedulerTests {

  @TempDir Path dir;

  private static ReclaimResult result(Task task, boolean hasMore) {
    return new ReclaimResult(task.operation(), task.partition(), 0, 0, 0, 0, 0, 0, 0, 0, 0, hasMore, false);
  }

  private static SchedulerOptions.Builder fast() {
    return SchedulerOptions.builder()
        .retryBackoff(Duration.ofMillis(2), Duration.ofMillis(8))
        .continuationDelay(Duration.ofMillis(1))
        .random(new Random(7));
  }

  @Test
  void passesRunWithBoundedConcurrencyAndEveryTaskOnce() throws Exception {
    AtomicInteger active = new AtomicInteger();
    AtomicInteger peak = new AtomicInteger();
    Map<Task, AtomicInteger> calls = new ConcurrentHashMap<>();
    // The first three passes wait for each other, so three run at once however the threads are
    // scheduled; a fourth could only join them if the bound let it.
    CountDownLatch full = new CountDownLatch(3);
    Runner runner = task -> {
      calls.computeIfAbsent(task, t -> new AtomicInteger()).incrementAndGet();
      peak.accumulateAndGet(active.incrementAndGet(), Math::max);
      full.countDown();
      try {
        if (!full.await(30, TimeUnit.SECONDS)) {
          throw new IllegalStateException("three passes did not run at once within 30 s");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      active.decrementAndGet();
      return result(task, false);
    };
    List<Task> tasks = new ArrayList<>();
    for (int p = 0; p < 20; p++) {
      tasks.add(Task.reclaim(p));
    }
    tasks.add(Task.reclaim(3)); // a duplicate runs once
    try (Scheduler scheduler = new Scheduler(runner, fast().maxConcurrentPartitions(3).build())) {
      ScheduleResult result = scheduler.run(tasks);
      assertThat(result).isEqualTo(new ScheduleResult(20, 20, 0, 0, 20, 0, 0));
    }
    assertThat(peak.get()).isEqualTo(3);
    assertThat(calls.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
  }

  @Test
  void tasksReportingMoreWorkContinueFairlyUntilTheCapDefersThem() throws Exception {
    Map<Integer, AtomicInteger> passes = new ConcurrentHashMap<>();
    List<Integer> order = new CopyOnWriteArrayList<>();
    Runner runner = task -> {
      int n = passes.computeIfAbsent(task.partition(), p -> new AtomicInteger()).incrementAndGet();
      order.add(task.partition());
      // Partition 0 needs 3 passes, partition 1 never finishes.
      return result(task, task.partition() == 1 || n < 3);
    };
    List<SchedulerEvent> events = new CopyOnWriteArrayList<>();
    try (Scheduler scheduler = new Scheduler(runner,
        fast().maxConcurrentPartitions(1).maxPassesPerTask(5).observer(events::add).build())) {
      ScheduleResult result = scheduler.run(List.of(Task.reclaim(0), Task.reclaim(1)));
      assertThat(result.completed()).isEqualTo(1);
      assertThat(result.deferred()).isEqualTo(1);
      assertThat(result.passes()).isEqualTo(3 + 5);
      assertThat(result.continuations()).isEqualTo(2 + 4);
    }
    // With one worker, the two partitions alternate rather than one starving the other.
    assertThat(order.subList(0, 4)).containsExactly(0, 1, 0, 1);
    SchedulerEvent last = events.stream().filter(e -> e.task().partition() == 1 && e.finalPass()).findFirst().orElseThrow();
    assertThat(last.deferred()).isTrue();
    assertThat(last.pass()).isEqualTo(5);
  }

  @Test
  void failuresAreRetriedWithBackoffAndJitterUntilMaxAttempts() throws Exception {
    Map<Integer, AtomicInteger> calls = new ConcurrentHashMap<>();
    Runner runner = task -> {
      int n = calls.computeIfAbsent(task.partition(), p -> new AtomicInteger()).incrementAndGet();
      if (task.partition() == 0 && n <= 2) {
        throw new LeaseHeldException("busy", "c".repeat(32), 0);
      }
      if (task.partition() == 1) {
        throw new IllegalStateException("always");
      }
      return result(task, false);
    };
    List<SchedulerEvent> events = new CopyOnWriteArrayList<>();
    SchedulerOptions options = SchedulerOptions.builder()
        .retryBackoff(Duration.ofMillis(4), Duration.ofMillis(10))
        .retryJitterFraction(0.2)
        .maxAttempts(4)
        .random(new Random(1))
        .observer(events::add)
        .build();
    try (Scheduler scheduler = new Scheduler(runner, options)) {
      ScheduleResult result = scheduler.run(List.of(Task.scrub(0), Task.scrub(1)));
      assertThat(result.completed()).isEqualTo(1);
      assertThat(result.failed()).isEqualTo(1);
      assertThat(result.retries()).isEqualTo(2 + 3);
      assertThat(result.passes()).isEqualTo(3 + 4);
      for (int failures = 1; failures <= 6; failures++) {
        long base = Math.min(10, 4L << (failures - 1));
        Duration d = scheduler.backoff(failures);
        assertThat(d.toNanos()).isBetween((long) (base * 0.8e6), (long) (base * 1.2e6));
      }
    }
    List<SchedulerEvent> failing = events.stream().filter(e -> e.task().partition() == 1).toList();
    assertThat(failing).extracting(SchedulerEvent::attempt).containsExactly(1, 2, 3, 4);
    assertThat(failing.get(3).finalPass()).isTrue();
    assertThat(failing.get(3).error()).hasMessage("always");
    assertThat(failing.subList(0, 3)).allSatisfy(e -> assertThat(e.nextDelay()).isPositive());
  }

  @Test
  @Timeout(120)
  void aPassRunningPastTheTimeoutIsInterruptedAndCountsAsAFailure() throws Exception {
    // A pass that never returns by itself: only the timeout's interrupt ends it, so the run ends
    // at all only if both passes were interrupted (the @Timeout is a hang guard, not a measure).
    AtomicInteger interrupted = new AtomicInteger();
    Runner runner = task -> {
      try {
        new CountDownLatch(1).await();
      } catch (InterruptedException e) {
        interrupted.incrementAndGet();
        Thread.currentThread().interrupt();
        throw new dev.objlog.ObjlogException("interrupted");
      }
      return result(task, false);
    };
    List<SchedulerEvent> events = new CopyOnWriteArrayList<>();
    try (Scheduler scheduler = new Scheduler(runner, fast().partitionRunTimeout(Duration.ofMillis(50))
        .maxAttempts(2).observer(events::add).build())) {
      ScheduleResult result = scheduler.run(List.of(Task.reclaim(9)));
      assertThat(interrupted).as("passes ended by the timeout's interrupt").hasValue(2);
      assertThat(result.failed()).isEqualTo(1);
    }
    assertThat(events).hasSize(2);
    assertThat(events.get(1).error()).hasMessageContaining("timed out");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aReclaimerDrivenAcrossPartitionsFinishesEveryPartition(StoreKind kind) throws Exception {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4);
        Reclaimer reclaimer = Reclaimer.create(f.log, ReclaimerOptions.builder().clock(f.clock)
            .deleteDelay(Duration.ZERO).maxDeletesPerRun(4).deleteBatchSize(2).build());
        Scheduler scheduler = new Scheduler(reclaimer, fast().maxConcurrentPartitions(2).build())) {
      List<Task> reclaims = new ArrayList<>();
      List<Task> scrubs = new ArrayList<>();
      for (int p = 0; p < 4; p++) {
        FencedSession writer = f.writer(p, 1);
        for (int i = 0; i < 10; i++) {
          f.append(writer, "p" + p + "-" + i);
        }
        f.log.requestRetention(p, 1, 8);
        RetentionApplier.apply(f.runtime(), writer);
        reclaims.add(Task.reclaim(p));
        scrubs.add(Task.scrub(p));
      }
      // First pass of each partition only observes the floor (delay 0 promotes it at once), and
      // 8 segments + 2 leaf pages per partition take 3 passes at 4 deletes each.
      ScheduleResult result = scheduler.run(reclaims);
      assertThat(result).extracting(ScheduleResult::tasks, ScheduleResult::completed,
          ScheduleResult::failed, ScheduleResult::continuations).containsExactly(4, 4, 0, 8L);
      assertThat(scheduler.run(scrubs).completed()).isEqualTo(4);
      for (int p = 0; p < 4; p++) {
        assertThat(Bucket.list(f.store, f.keys(p).segmentsDir())).as("partition %d", p).hasSize(2);
        assertThat(f.read(p, 8)).hasSize(2);
        assertThat(f.catalog(p).verifyTree(f.head(p)).segments()).isEqualTo(2);
      }
    }
  }
}
