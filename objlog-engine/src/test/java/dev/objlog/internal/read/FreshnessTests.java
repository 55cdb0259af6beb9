package dev.objlog.internal.read;

import static dev.objlog.store.fault.FaultInjectingObjectStore.Operation.GET;
import static dev.objlog.store.fault.FaultInjectingObjectStore.Operation.GET_IF_CHANGED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.ObjlogOptions;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.PartitionHead;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which head a read uses, when it refreshes, and what a refresh costs (PROTOCOLS.md §5.4). */
class FreshnessTests {
  private ObservedStore observed;
  private FaultInjectingObjectStore store;
  private SimpleMeterRegistry meters;
  private TestLog t;

  @BeforeEach
  void open() {
    observed = new ObservedStore(new MemoryObjectStore());
    store = FaultInjectingObjectStore.builder(observed).build();
    meters = new SimpleMeterRegistry();
    t = TestLog.open(store, ObjlogOptions.builder().meterRegistry(meters));
  }

  @AfterEach
  void close() {
    t.close();
  }

  private long headRequests() {
    return store.requestCount(GET) + store.requestCount(GET_IF_CHANGED);
  }

  private double refreshes(String outcome) {
    var counter = meters.find(MetricNames.READER_HEAD_REFRESH).tag(MetricNames.TAG_OUTCOME, outcome).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void cachedReadsDoNotSeeCommitsUntilSomethingRefreshes() {
    TestLog.Writer w = t.writer(1);
    w.commitSegments(1, 5, 10);
    PartitionReader p = t.log.reader().partition(1);
    assertThat(p.read(0, 100, Freshness.CACHED).records()).hasSize(5);

    w.commitSegments(1, 5, 20);
    assertThat(p.read(5, 100, Freshness.CACHED).records()).isEmpty();
    assertThat(p.head(Freshness.CACHED).nextLsn()).isEqualTo(5);

    assertThat(p.read(5, 100, Freshness.ON_TAIL).records()).extracting(ReadRecord::lsn)
        .containsExactly(5L, 6L, 7L, 8L, 9L);
    assertThat(p.head(Freshness.CACHED).nextLsn()).isEqualTo(10);
  }

  @Test
  void onTailRefreshesOnlyWhenTheReadStartsAtOrBeyondTheKnownNextLsn() {
    TestLog.Writer w = t.writer(1);
    w.commitSegments(2, 5, 10);
    PartitionReader p = t.log.reader().partition(1);
    p.read(0, 100, Freshness.ON_TAIL);
    store.resetCounts();

    p.read(0, 100, Freshness.ON_TAIL);
    p.read(9, 100, Freshness.ON_TAIL);
    assertThat(headRequests()).as("reads below the known next LSN use the known head").isZero();

    p.read(10, 100, Freshness.ON_TAIL);
    assertThat(store.requestCount(GET_IF_CHANGED)).as("a read at the tail polls once").isEqualTo(1);
    assertThat(store.requestCount(GET)).isZero();
  }

  @Test
  void latestRefreshesBeforeEveryRead() {
    t.writer(1).commitSegments(1, 5, 10);
    PartitionReader p = t.log.reader().partition(1);
    p.read(0, 1, Freshness.LATEST);
    store.resetCounts();
    for (int i = 0; i < 3; i++) {
      p.read(0, 1, Freshness.LATEST);
    }
    assertThat(store.requestCount(GET_IF_CHANGED)).isEqualTo(3);
  }

  @Test
  void anUnchangedHeadPollTransfersNoBody() {
    t.writer(1).commitSegments(1, 5, 10);
    PartitionReader p = t.log.reader().partition(1);
    p.head(Freshness.LATEST);
    store.resetCounts();
    observed.resetCounts();
    double unchangedBefore = refreshes("unchanged");

    PartitionHead head = p.head(Freshness.LATEST);

    assertThat(head.nextLsn()).isEqualTo(5);
    assertThat(store.requestCount(GET)).as("no full GET").isZero();
    assertThat(observed.conditionalAnswers).containsExactly(ConditionalGetResult.Unchanged.class);
    assertThat(refreshes("unchanged") - unchangedBefore).isEqualTo(1);
  }

  @Test
  void aChangedHeadIsCountedAsChanged() {
    TestLog.Writer w = t.writer(1);
    w.commitSegments(1, 5, 10);
    PartitionReader p = t.log.reader().partition(1);
    p.head(Freshness.LATEST);
    double before = refreshes("changed");
    w.commitSegments(1, 1, 20);
    assertThat(p.head(Freshness.LATEST).nextLsn()).isEqualTo(6);
    assertThat(refreshes("changed") - before).isEqualTo(1);
  }

  @Test
  void concurrentRefreshesOfOnePartitionShareOneRequest() throws Exception {
    t.writer(1).commitSegments(1, 5, 10);
    LogReader reader = t.log.newReader(dev.objlog.read.ReaderOptions.defaults());
    PartitionReader p = reader.partition(1);
    p.head(Freshness.LATEST); // known head: later refreshes are conditional GETs
    store.resetCounts();

    CountDownLatch gate = new CountDownLatch(1);
    observed.conditionalGate.set(gate);
    int callers = 16;
    ExecutorService pool = Executors.newFixedThreadPool(callers);
    try {
      List<Thread> threads = new ArrayList<>();
      List<Future<Long>> results = new ArrayList<>();
      CountDownLatch started = new CountDownLatch(callers);
      for (int i = 0; i < callers; i++) {
        results.add(pool.submit(() -> {
          synchronized (threads) {
            threads.add(Thread.currentThread());
          }
          started.countDown();
          return p.read(0, 10, Freshness.LATEST).head().nextLsn();
        }));
      }
      assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
      // Wait (bounded) until one caller is inside the store and every other one waits for its answer.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!(observed.atConditionalGate.get() == 1 && othersWaitOnTheSharedRefresh(threads, callers))) {
        assertThat(System.nanoTime()).as("callers lined up in time").isLessThan(deadline);
        Thread.sleep(5);
      }
      gate.countDown();
      for (Future<Long> f : results) {
        assertThat(f.get(30, TimeUnit.SECONDS)).isEqualTo(5);
      }
      assertThat(store.requestCount(GET_IF_CHANGED)).as("one conditional GET for 16 callers").isEqualTo(1);
      assertThat(store.requestCount(GET)).isZero();
    } finally {
      observed.conditionalGate.set(null);
      pool.shutdownNow();
      reader.close();
    }
  }

  private static boolean othersWaitOnTheSharedRefresh(List<Thread> threads, int callers) {
    synchronized (threads) {
      if (threads.size() < callers) {
        return false;
      }
      int waiting = 0;
      for (Thread th : threads) {
        for (StackTraceElement e : th.getStackTrace()) {
          if (e.getClassName().equals("java.util.concurrent.CompletableFuture")
              && (e.getMethodName().equals("get") || e.getMethodName().equals("waitingGet"))) {
            waiting++;
            break;
          }
        }
      }
      return waiting == callers - 1;
    }
  }
}
