package dev.objlog.coordination;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.coordination.CasDocument.Change;
import dev.objlog.coordination.CasDocument.ExhaustedException;
import dev.objlog.coordination.CasDocument.Updated;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class CasDocumentTests {
  private static final String KEY = "docs/state.json";

  private final MemoryObjectStore memory = new MemoryObjectStore();
  private final FaultInjectingObjectStore faults = FaultInjectingObjectStore.builder(memory).build();
  /**
   * Written by a rival straight into the bucket while the change function runs, so between this
   * call's read and its swap, one a run.
   */
  private final List<String> rivals = new ArrayList<>();
  private final List<Duration> sleeps = new ArrayList<>();
  /** What the change function was shown, call by call. */
  private final List<Optional<String>> seen = new ArrayList<>();

  private CasDocument<String> document(int attempts) {
    return new CasDocument<>(faults, KEY, "test document",
        CasDocument.Codec.of(b -> new String(b, UTF_8), s -> s.getBytes(UTF_8)),
        CasDocument.Retries.backoff(attempts, Duration.ofMillis(5), Duration.ofMillis(50), sleeps::add));
  }

  /** Appends "mine" to whatever is stored and answers what it wrote. */
  private final Function<Optional<String>, Change<String, String>> appendMine = current -> {
    seen.add(current);
    if (!rivals.isEmpty()) {
      rivalWrites(rivals.remove(0));
    }
    String next = current.map(s -> s + "+mine").orElse("mine");
    return CasDocument.write(next, next);
  };

  private void rivalWrites(String value) {
    byte[] bytes = value.getBytes(UTF_8);
    try {
      assertThat(memory.compareAndSwap(KEY, memory.get(KEY).token(), bytes).swapped()).isTrue();
    } catch (ObjectNotFoundException e) {
      assertThat(memory.putIfAbsent(KEY, bytes).created()).isTrue();
    }
  }

  private @Nullable String stored() {
    try {
      return new String(memory.get(KEY).bytes(), UTF_8);
    } catch (ObjectNotFoundException e) {
      return null;
    }
  }

  @Test
  void aLostReplyWhoseSwapLandedIsThisCallsWrite() {
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));

    Updated<String> updated = document(3).update(appendMine);

    assertThat(updated.result()).isEqualTo("mine");
    assertThat(updated.written()).isTrue();
    assertThat(updated.token()).as("the token of the stored version").isEqualTo(memory.get(KEY).token());
    assertThat(stored()).as("the landed write must not be applied twice").isEqualTo("mine");
    assertThat(seen).as("the change ran once").containsExactly(Optional.empty());
    assertThat(faults.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(1);
    assertThat(sleeps).as("settled without a pause").isEmpty();
  }

  @Test
  void aConflictReappliesTheChangeToTheDocumentTheConflictReports() {
    rivals.add("rival");

    Updated<String> updated = document(3).update(appendMine);

    assertThat(updated.result()).isEqualTo("rival+mine");
    assertThat(stored()).isEqualTo("rival+mine");
    assertThat(seen).as("the second run saw the rival's document")
        .containsExactly(Optional.empty(), Optional.of("rival"));
    assertThat(faults.requestCount(Operation.GET)).as("the conflict's document is not read again")
        .isEqualTo(1);
    assertThat(sleeps).containsExactly(Duration.ofMillis(5));
  }

  @Test
  void aConflictThatShowsThisCallsOwnBytesIsThisCallsWrite() {
    rivals.add("mine");

    Updated<String> updated = document(3).update(appendMine);

    assertThat(updated.written()).isTrue();
    assertThat(stored()).as("identical bytes already stored are not appended to").isEqualTo("mine");
    assertThat(seen).hasSize(1);
  }

  @Test
  void anAmbiguousSwapWhoseReadBackShowsSomeoneElsesBytesRetriesOnThoseBytes() {
    memory.putIfAbsent(KEY, "base".getBytes(UTF_8));
    // The swap reaches the store and loses to the rival, and its reply is lost.
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));
    rivals.add("rival");

    Updated<String> updated = document(3).update(appendMine);

    assertThat(updated.result()).isEqualTo("rival+mine");
    assertThat(stored()).isEqualTo("rival+mine");
    assertThat(seen).as("the retry works on the document read back")
        .containsExactly(Optional.of("base"), Optional.of("rival"));
    assertThat(sleeps).containsExactly(Duration.ofMillis(5));
  }

  @Test
  void anExhaustedBudgetIsTheTypedErrorWithTheLastStoreError() {
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.ERROR_BEFORE, 3));

    assertThatThrownBy(() -> document(3).update(appendMine))
        .isInstanceOfSatisfying(ExhaustedException.class, e -> {
          assertThat(e.mayHaveTakenEffect()).as("exhausted is final").isFalse();
          assertThat(e.getCause()).isInstanceOf(TransientStoreException.class);
          assertThat(e.lastSeen()).as("nothing is stored").isNull();
        })
        .hasMessage("test document " + KEY + " could not be written after 3 attempts");
    assertThat(stored()).isNull();
    assertThat(faults.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(3);
    assertThat(sleeps).as("5 then 10 ms between three attempts")
        .containsExactly(Duration.ofMillis(5), Duration.ofMillis(10));
  }

  @Test
  void aBudgetLostToRivalsReportsTheirDocumentAndNoStoreError() {
    rivals.addAll(List.of("rival1", "rival2"));

    assertThatThrownBy(() -> document(2).update(appendMine))
        .isInstanceOfSatisfying(ExhaustedException.class, e -> {
          assertThat(e.getCause()).isNull();
          assertThat(e.lastSeen()).isNotNull();
          assertThat(new String(e.lastSeen().bytes(), UTF_8)).isEqualTo(stored());
        });
    assertThat(seen).hasSize(2);
  }

  @Test
  void aKeptDocumentIsNotWritten() {
    memory.putIfAbsent(KEY, "base".getBytes(UTF_8));

    Updated<String> updated = document(3).update(current -> CasDocument.keep("as is"));

    assertThat(updated.result()).isEqualTo("as is");
    assertThat(updated.written()).isFalse();
    assertThat(updated.token()).isEqualTo(memory.get(KEY).token());
    assertThat(faults.requestCount(Operation.COMPARE_AND_SWAP)).isZero();
  }

  @Test
  void theChangesRefusalPassesThroughWithoutAWrite() {
    assertThatThrownBy(() -> document(3).update(current -> {
      throw new IllegalStateException("refused");
    })).isInstanceOf(IllegalStateException.class).hasMessage("refused");
    assertThat(faults.requestCount(Operation.COMPARE_AND_SWAP)).isZero();
  }

  // --- swap over a held version ---------------------------------------------------------------

  private VersionToken held() {
    return memory.get(KEY).token();
  }

  @Test
  void aSwapWhoseReplyWasLostButLandedIsSwapped() {
    memory.putIfAbsent(KEY, "base".getBytes(UTF_8));
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));

    CasDocument.Swap swap = document(3).swap(held(), "next");

    assertThat(swap).isEqualTo(new CasDocument.Swap.Swapped(memory.get(KEY).token()));
    assertThat(stored()).isEqualTo("next");
    assertThat(faults.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(1);
  }

  @Test
  void aSwapThatDidNotLandIsTriedAgainOverTheSameVersion() {
    memory.putIfAbsent(KEY, "base".getBytes(UTF_8));
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.ERROR_BEFORE, 2));

    CasDocument.Swap swap = document(3).swap(held(), "next");

    assertThat(swap).isInstanceOf(CasDocument.Swap.Swapped.class);
    assertThat(stored()).isEqualTo("next");
    assertThat(sleeps).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10));
  }

  @Test
  void aSwapOverAVersionSomeoneElseReplacedIsLostWithTheirDocument() {
    memory.putIfAbsent(KEY, "base".getBytes(UTF_8));
    VersionToken held = held();
    rivalWrites("rival");
    // Lost reply or plain conflict: either way the document is the rival's.
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));

    CasDocument.Swap swap = document(3).swap(held, "next");

    assertThat(swap).isInstanceOfSatisfying(CasDocument.Swap.Lost.class,
        lost -> assertThat(new String(lost.current().bytes(), UTF_8)).isEqualTo("rival"));
    assertThat(stored()).as("nothing written over the rival").isEqualTo("rival");
    assertThat(faults.requestCount(Operation.COMPARE_AND_SWAP)).as("a lost swap is final").isEqualTo(1);
  }

  @Test
  void aSwapThatNeverLandsIsExhausted() {
    memory.putIfAbsent(KEY, "base".getBytes(UTF_8));
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.ERROR_BEFORE, 2));

    assertThatThrownBy(() -> document(2).swap(held(), "next"))
        .isInstanceOfSatisfying(ExhaustedException.class,
            e -> assertThat(e.getCause()).isInstanceOf(TransientStoreException.class));
    assertThat(stored()).isEqualTo("base");
  }

  @Test
  void aBudgetForIndeterminateRepliesOnlyLetsATransientErrorThrough() {
    faults.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.ERROR_BEFORE, 1));
    CasDocument<String> document = new CasDocument<>(faults, KEY, "test document",
        CasDocument.Codec.of(b -> new String(b, UTF_8), s -> s.getBytes(UTF_8)),
        CasDocument.Retries.immediate(3).indeterminateOnly());

    assertThatThrownBy(() -> document.update(appendMine))
        .isExactlyInstanceOf(TransientStoreException.class);
    assertThat(faults.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(1);
    assertThat(faults.requestCount(Operation.GET)).as("no read-back").isEqualTo(1);
  }
}
