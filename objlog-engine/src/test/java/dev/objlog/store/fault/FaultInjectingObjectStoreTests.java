package dev.objlog.store.fault;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalWritesNotHonouredException;
import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.Retrier;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.InjectedFault;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.fault.FaultInjectingObjectStore.RequestType;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FaultInjectingObjectStoreTests {

  private final MemoryObjectStore memory = new MemoryObjectStore();
  private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

  private FaultInjectingObjectStore.Builder builder() {
    return FaultInjectingObjectStore.builder(memory).sleeper(sleeps::add);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  // --- the self-test -----------------------------------------------------------------------

  @Test
  void selfTestRejectsAStoreThatDropsConditions() {
    FaultInjectingObjectStore store = builder().dropConditions(true).build();
    assertThatThrownBy(() -> store.verifyConditionalWrites("app"))
        .isInstanceOf(ConditionalWritesNotHonouredException.class)
        .hasMessageContaining("does not honour conditional writes")
        .hasMessageContaining("create-only write");
    assertThat(memory.list("app/", 10).entries()).as("self-test cleans up").isEmpty();
  }

  @Test
  void droppedConditionsOverwriteEverywhere() {
    FaultInjectingObjectStore store = builder().dropConditions(true).build();
    assertThat(store.putIfAbsent("k", bytes("1")).created()).isTrue();
    assertThat(store.putIfAbsent("k", bytes("2")).created()).isTrue();
    assertThat(store.compareAndSwap("k", VersionToken.of("stale"), bytes("3")).swapped()).isTrue();
    try (ObjectUpload upload = store.startUpload("k")) {
      upload.write(bytes("4"));
      assertThat(upload.complete().created()).isTrue();
    }
    assertThat(memory.get("k").bytes()).isEqualTo(bytes("4"));
  }

  // --- each fault kind ---------------------------------------------------------------------

  @Test
  void errorBeforeNeverReachesTheDelegate() {
    FaultInjectingObjectStore store =
        builder().rule(FaultRule.next(Operation.PUT_IF_ABSENT, Fault.ERROR_BEFORE, 1)).build();
    assertThatThrownBy(() -> store.putIfAbsent("k", bytes("x")))
        .isInstanceOfSatisfying(TransientStoreException.class, e -> assertThat(e.mayHaveTakenEffect()).isFalse());
    assertThat(memory.head("k")).isEmpty();
    assertThat(store.putIfAbsent("k", bytes("x")).created()).as("the rule fired once").isTrue();
  }

  @Test
  void lostReplyWriteReallyTookEffect() {
    FaultInjectingObjectStore store =
        builder()
            .rule(FaultRule.next(Operation.PUT_IF_ABSENT, Fault.LOST_REPLY, 1))
            .rule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1))
            .build();
    assertThatThrownBy(() -> store.putIfAbsent("k", bytes("v1")))
        .isInstanceOfSatisfying(TransientStoreException.class, e -> assertThat(e.mayHaveTakenEffect()).isTrue());
    VersionToken token = memory.get("k").token();
    assertThat(memory.get("k").bytes()).isEqualTo(bytes("v1"));
    assertThatThrownBy(() -> store.compareAndSwap("k", token, bytes("v2")))
        .isInstanceOfSatisfying(TransientStoreException.class, e -> assertThat(e.mayHaveTakenEffect()).isTrue());
    assertThat(memory.get("k").bytes()).isEqualTo(bytes("v2"));
    assertThat(store.injectedFaults())
        .extracting(InjectedFault::fault)
        .containsExactly(Fault.LOST_REPLY, Fault.LOST_REPLY);
  }

  @Test
  void timeoutWaitsThroughTheSleeperAndMayHaveTakenEffect() {
    FaultInjectingObjectStore store =
        builder()
            .timeout(Duration.ofSeconds(7))
            .rule(FaultRule.next(Operation.PUT_IF_ABSENT, Fault.TIMEOUT, 1))
            .rule(FaultRule.next(Operation.GET, Fault.TIMEOUT, 1))
            .build();
    assertThatThrownBy(() -> store.putIfAbsent("k", bytes("x")))
        .isInstanceOfSatisfying(TransientStoreException.class, e -> assertThat(e.mayHaveTakenEffect()).isTrue());
    assertThatThrownBy(() -> store.get("k"))
        .isInstanceOfSatisfying(TransientStoreException.class, e -> assertThat(e.mayHaveTakenEffect()).isFalse());
    assertThat(sleeps).containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(7));
  }

  @Test
  void timedOutWritesLandOrNotByASeededCoinThatReplays() {
    List<Boolean> first = timeoutOutcomes(5);
    assertThat(first).contains(true, false);
    assertThat(timeoutOutcomes(5)).isEqualTo(first);
  }

  private static List<Boolean> timeoutOutcomes(long seed) {
    MemoryObjectStore target = new MemoryObjectStore();
    FaultInjectingObjectStore store =
        FaultInjectingObjectStore.builder(target)
            .seed(seed)
            .sleeper(d -> {})
            .faultProbability(Operation.PUT_IF_ABSENT, Fault.TIMEOUT, 1.0)
            .build();
    List<Boolean> landed = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      String key = "k" + i;
      assertThatThrownBy(() -> store.putIfAbsent(key, new byte[1])).isInstanceOf(TransientStoreException.class);
      landed.add(target.head(key).isPresent());
    }
    return landed;
  }

  @Test
  void tornUploadDiesHalfWayAndLeavesNothing() {
    FaultInjectingObjectStore store =
        builder()
            .tornUploadMaxBytes(1000)
            .rule(FaultRule.next(Operation.UPLOAD, Fault.TORN_UPLOAD, 1))
            .build();
    ObjectUpload upload = store.startUpload("big");
    assertThatThrownBy(
            () -> {
              for (int i = 0; i < 100; i++) {
                upload.write(new byte[100]);
              }
            })
        .isInstanceOfSatisfying(TransientStoreException.class, e -> assertThat(e.mayHaveTakenEffect()).isFalse());
    assertThat(upload.bytesWritten()).isBetween(1L, 1000L);
    assertThatThrownBy(upload::complete).isInstanceOf(TransientStoreException.class);
    upload.close();
    assertThat(memory.head("big")).isEmpty();
    try (ObjectUpload next = store.startUpload("big")) {
      next.write(new byte[5000]);
      assertThat(next.complete().created()).isTrue();
    }
  }

  @Test
  void tornUploadThatNeverReachesTheThresholdDiesAtComplete() {
    FaultInjectingObjectStore store =
        builder()
            .tornUploadMaxBytes(1_000_000)
            .rule(FaultRule.next(Operation.UPLOAD, Fault.TORN_UPLOAD, 1))
            .build();
    try (ObjectUpload upload = store.startUpload("small")) {
      upload.write(bytes("tiny"));
      assertThatThrownBy(upload::complete).isInstanceOf(TransientStoreException.class);
    }
    assertThat(memory.head("small")).isEmpty();
  }

  @Test
  void lostReplyUploadIsVisible() {
    FaultInjectingObjectStore store =
        builder().rule(FaultRule.next(Operation.UPLOAD, Fault.LOST_REPLY, 1)).build();
    try (ObjectUpload upload = store.startUpload("u")) {
      upload.write(bytes("payload"));
      assertThatThrownBy(upload::complete)
          .isInstanceOfSatisfying(TransientStoreException.class, e -> assertThat(e.mayHaveTakenEffect()).isTrue());
    }
    assertThat(memory.get("u").bytes()).isEqualTo(bytes("payload"));
  }

  @Test
  void rulesMatchByKeyPrefixAndOperationSet() {
    FaultInjectingObjectStore store =
        builder()
            .rule(new FaultRule(java.util.Set.of(Operation.GET, Operation.HEAD), "hot/", Fault.ERROR_BEFORE, 2))
            .build();
    memory.putIfAbsent("hot/a", bytes("a"));
    memory.putIfAbsent("cold/a", bytes("a"));
    assertThat(store.get("cold/a").bytes()).isEqualTo(bytes("a"));
    assertThatThrownBy(() -> store.head("hot/a")).isInstanceOf(TransientStoreException.class);
    assertThatThrownBy(() -> store.get("hot/a")).isInstanceOf(TransientStoreException.class);
    assertThat(store.get("hot/a").bytes()).isEqualTo(bytes("a"));
  }

  // --- determinism -------------------------------------------------------------------------

  @ParameterizedTest(name = "{0} with seeds 17 and 18")
  @EnumSource(value = Fault.class)
  void probabilisticFaultsReplayExactlyFromTheSeed(Fault fault) {
    List<String> a = workload(17, fault);
    List<String> b = workload(17, fault);
    List<String> c = workload(18, fault);
    assertThat(a).as("same seed, same faults and sleeps").isEqualTo(b);
    assertThat(a).as("another seed differs").isNotEqualTo(c);
    assertThat(a).as("faults were injected").anyMatch(line -> line.startsWith("fault"));
  }

  /** A fixed single-threaded request sequence; returns the faults and sleeps it saw. */
  private static List<String> workload(long seed, Fault fault) {
    List<String> seen = new ArrayList<>();
    FaultInjectingObjectStore.Builder builder =
        FaultInjectingObjectStore.builder(new MemoryObjectStore())
            .seed(seed)
            .latency(Duration.ofMillis(5), Duration.ofMillis(20))
            .timeout(Duration.ofSeconds(1))
            .sleeper(d -> seen.add("sleep " + d.toNanos()));
    if (fault == Fault.TORN_UPLOAD) {
      builder.faultProbability(Fault.TORN_UPLOAD, 0.3).tornUploadMaxBytes(300);
    } else {
      builder.faultProbability(fault, 0.3);
    }
    FaultInjectingObjectStore store = builder.build();
    SplittableRandom bodies = new SplittableRandom(1);
    for (int i = 0; i < 60; i++) {
      String key = "k" + (i % 7);
      try {
        switch (i % 4) {
          case 0 -> store.putIfAbsent(key, new byte[bodies.nextInt(100)]);
          case 1 -> store.head(key);
          case 2 -> {
            try (ObjectUpload upload = store.startUpload(key + "/u" + i)) {
              upload.write(new byte[200]);
              upload.write(new byte[200]);
              upload.complete();
            }
          }
          default -> store.list("", 10);
        }
        seen.add("ok " + i);
      } catch (TransientStoreException e) {
        seen.add("failed " + i + " " + e.mayHaveTakenEffect());
      }
    }
    store.injectedFaults().forEach(f -> seen.add("fault " + f.operation() + " " + f.key() + " " + f.fault()));
    return seen;
  }

  // --- latency, bandwidth, counters --------------------------------------------------------

  @Test
  void latencyAndBandwidthSleepThroughTheSleeper() {
    FaultInjectingObjectStore store =
        builder().latency(Duration.ofMillis(10), Duration.ofMillis(30)).bandwidth(1000).build();
    store.putIfAbsent("k", new byte[500]);
    assertThat(sleeps).hasSize(2);
    assertThat(sleeps.get(0)).isBetween(Duration.ofMillis(10), Duration.ofMillis(40));
    assertThat(sleeps.get(1)).isEqualTo(Duration.ofMillis(500));
    sleeps.clear();
    store.get("k");
    assertThat(sleeps).hasSize(2);
    assertThat(sleeps.get(1)).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void requestsAreCountedByOperationAndType() {
    FaultInjectingObjectStore store = builder().build();
    VersionToken token = ((CreateResult.Created) store.putIfAbsent("k", bytes("1"))).token();
    store.compareAndSwap("k", token, bytes("2"));
    store.get("k");
    store.getRange("k", 0, 1);
    store.head("k");
    store.list("", 10);
    store.delete(List.of("k", "missing"));
    try (ObjectUpload upload = store.startUpload("u")) {
      upload.write(bytes("x"));
      upload.complete();
    }
    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(1);
    assertThat(store.requestCounts())
        .containsEntry(RequestType.PUT, 3L)
        .containsEntry(RequestType.GET, 2L)
        .containsEntry(RequestType.HEAD, 1L)
        .containsEntry(RequestType.LIST, 1L)
        .containsEntry(RequestType.DELETE, 2L);
    store.resetCounts();
    assertThat(store.requestCount(RequestType.PUT)).isZero();
  }

  // --- with the Retrier --------------------------------------------------------------------

  @Test
  void retrierTurnsAnExhaustedLostReplyWriteIntoIndeterminate() {
    FaultInjectingObjectStore store =
        builder().rule(FaultRule.next(Operation.PUT_IF_ABSENT, Fault.LOST_REPLY, 3)).build();
    Retrier retrier =
        new Retrier(
            new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(1), 0, Duration.ofSeconds(1)),
            d -> {},
            new SplittableRandom(3));
    assertThatThrownBy(() -> retrier.write("PUT k", () -> store.putIfAbsent("k", bytes("mine"))))
        .isInstanceOf(IndeterminateStoreException.class)
        .hasMessageContaining("may or may not have taken effect");
    assertThat(memory.get("k").bytes()).as("the first try took effect").isEqualTo(bytes("mine"));
    assertThat(store.requestCount(Operation.PUT_IF_ABSENT)).isEqualTo(3);
  }

  @Test
  void retrierRecoversFromALostReplyAndTheCallerSeesItsOwnWrite() {
    FaultInjectingObjectStore store =
        builder().rule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1)).build();
    VersionToken token = ((CreateResult.Created) store.putIfAbsent("k", bytes("v1"))).token();
    Retrier retrier = new Retrier(RetryPolicy.DEFAULT, d -> {}, new SplittableRandom(3));
    CasResult result = retrier.write("CAS k", () -> store.compareAndSwap("k", token, bytes("v2")));
    // The retry's condition fails because the first try landed; the conflict carries our bytes.
    assertThat(result).isInstanceOf(CasResult.Conflict.class);
    assertThat(((CasResult.Conflict) result).current().bytes()).isEqualTo(bytes("v2"));
  }
}
