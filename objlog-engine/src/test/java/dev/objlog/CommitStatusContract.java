package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.read.Freshness;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.CasResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.VersionToken;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.testing.ForwardingObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Objlog#commitStatus} through the public API, on each store a subclass names: a publish
 * whose head swap gets no answer and cannot be read back leaves its records indeterminate; once
 * the partition is taken over the call says exactly which landed, also after the new owner wrote
 * other records at the same LSNs; before the takeover it refuses with a typed error. The recipe of
 * docs/USAGE.md ("Retrying without duplicates") then leaves every record in the log exactly once.
 */
public abstract class CommitStatusContract {

  /** The store under test; each test works in its own stream, so one store per class is fine. */
  protected abstract ObjectStore store() throws Exception;

  private FaultInjectingObjectStore faulty;
  private SwapDroppingStore dropping;
  private String stream;

  @BeforeEach
  void freshStream() throws Exception {
    faulty = FaultInjectingObjectStore.builder(store()).seed(13).timeout(Duration.ofMillis(1)).build();
    dropping = new SwapDroppingStore(faulty);
    stream = "commit-status/" + getClass().getSimpleName() + "/" + UUID.randomUUID();
  }

  private static WriterOptions manualCuts() {
    return WriterOptions.builder().batch(Duration.ZERO, 64L << 20, 16_384).build();
  }

  private static List<String> values(Objlog log) {
    return log.reader().partition(0).read(0, 100, Freshness.LATEST).records().stream()
        .map(ReadRecord::valueAsString).toList();
  }

  private static Throwable failureOf(CompletableFuture<?> future) throws InterruptedException {
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the record's future did not complete", e);
    }
    throw new AssertionError("the record's future completed normally, expected a failure");
  }

  /** Writes "a" cleanly, then "b" and "c" in one segment whose head swap ends indeterminate. */
  private List<AppendResult> writeIndeterminate(Objlog log, boolean swapLands) throws Exception {
    return writeIndeterminate(log, 0, swapLands);
  }

  private List<AppendResult> writeIndeterminate(Objlog log, int partition, boolean swapLands) throws Exception {
    PartitionWriter writer = log.openWriter(partition, manualCuts());
    AppendResult a = writer.append(LogRecord.of(1, "a"));
    writer.flush();
    if (swapLands) {
      faulty.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP), "", Fault.LOST_REPLY, 1_000));
    } else {
      dropping.dropHeadSwaps = true;
    }
    // The read-back that would settle it fails too: every way to learn the outcome is cut.
    faulty.addRule(new FaultRule(Set.of(Operation.GET, Operation.GET_IF_CHANGED), "", Fault.ERROR_BEFORE, 1_000));
    AppendResult b = writer.append(LogRecord.of(2, "b"));
    AppendResult c = writer.append(LogRecord.of(2, "c"));
    assertThatThrownBy(writer::flush).isInstanceOf(CommitIndeterminateException.class);
    assertThat(failureOf(b.committed())).isInstanceOf(CommitIndeterminateException.class);
    assertThat(failureOf(c.committed())).isInstanceOf(CommitIndeterminateException.class);
    faulty.clearRules();
    dropping.dropHeadSwaps = false;
    writer.abort();
    return List.of(a, b, c);
  }

  @Test
  void aLostReplyOnAHeadSwapThatLandedIsCommittedOnceThePartitionIsTakenOver() throws Exception {
    try (Objlog log = Objlog.open(dropping, stream)) {
      List<AppendResult> held = writeIndeterminate(log, true);
      try (PartitionWriter next = log.openWriter(0, manualCuts())) {
        faulty.resetCounts();
        assertThat(log.commitStatus(held))
            .as("the swap of b and c landed before the takeover")
            .containsExactly(CommitStatus.COMMITTED, CommitStatus.COMMITTED, CommitStatus.COMMITTED);
        assertThat(faulty.requestCounts().values().stream().mapToLong(Long::longValue).sum())
            .as("one head read decides records of the open leaf")
            .isEqualTo(1);
        next.append(LogRecord.of(3, "d"));
        next.flush();
        assertThat(log.commitStatus(held)).as("still committed after the new owner wrote more")
            .containsOnly(CommitStatus.COMMITTED);
      }
      assertThat(values(log)).containsExactly("a", "b", "c", "d");
    }
  }

  @Test
  void aHeadSwapThatNeverLandedIsNotCommittedEvenWhereTheNewOwnerReusedItsLsns() throws Exception {
    try (Objlog log = Objlog.open(dropping, stream)) {
      List<AppendResult> held = writeIndeterminate(log, false);
      try (PartitionWriter next = log.openWriter(0, manualCuts())) {
        assertThat(log.commitStatus(held)).as("b and c are beyond the new owner's next LSN")
            .containsExactly(CommitStatus.COMMITTED, CommitStatus.NOT_COMMITTED, CommitStatus.NOT_COMMITTED);
        AppendResult x = next.append(LogRecord.of(3, "x"));
        AppendResult y = next.append(LogRecord.of(3, "y"));
        next.flush();
        assertThat(List.of(x.lsn(), y.lsn())).as("the new owner reused the LSNs of b and c")
            .containsExactly(held.get(1).lsn(), held.get(2).lsn());
        assertThat(log.commitStatus(held))
            .as("LSNs of b and c are below the head now, but in a segment of a later epoch")
            .containsExactly(CommitStatus.COMMITTED, CommitStatus.NOT_COMMITTED, CommitStatus.NOT_COMMITTED);
        assertThat(log.commitStatus(List.of(x, y))).containsOnly(CommitStatus.COMMITTED);
      }
      assertThat(values(log)).containsExactly("a", "x", "y");
    }
  }

  @Test
  void askingBeforeTheTakeoverIsRefusedWithATypedErrorThatSaysWhatToDo() throws Exception {
    try (Objlog log = Objlog.open(dropping, stream)) {
      List<AppendResult> held = writeIndeterminate(log, true);
      assertThatThrownBy(() -> log.commitStatus(held))
          .isInstanceOfSatisfying(CommitUndecidableException.class, e -> {
            assertThat(e.reason()).isEqualTo(CommitUndecidableException.Reason.NOT_TAKEN_OVER);
            assertThat(e.partition()).isZero();
            assertThat(e.writerEpoch()).isEqualTo(held.get(1).writerEpoch());
            assertThat(e.lsn()).isEqualTo(held.get(1).lsn());
          })
          .hasMessageContaining("Open a writer of the partition");
      assertThat(log.commitStatus(held.subList(0, 1)))
          .as("a record whose future completed needs no takeover")
          .containsExactly(CommitStatus.COMMITTED);
      log.openWriter(0, manualCuts()).close();
      assertThat(log.commitStatus(held)).containsOnly(CommitStatus.COMMITTED);
    }
  }

  @Test
  void reAppendingOnlyWhatDidNotLandLeavesEveryRecordInTheLogOnceAndInOrder() throws Exception {
    for (boolean lands : new boolean[] {true, false}) {
      String name = stream + "/" + lands;
      try (Objlog log = Objlog.open(dropping, name)) {
        List<AppendResult> held = writeIndeterminate(log, lands);
        List<String> sent = List.of("a", "b", "c");
        // The recipe: take over, ask, append again what did not land, in LSN order.
        try (PartitionWriter next = log.openWriter(0, manualCuts())) {
          List<CommitStatus> statuses = log.commitStatus(held);
          List<AppendResult> again = new ArrayList<>();
          for (int i = 0; i < held.size(); i++) {
            if (statuses.get(i) == CommitStatus.NOT_COMMITTED) {
              again.add(next.append(LogRecord.of(2, sent.get(i))));
            }
          }
          next.flush();
          assertThat(again).hasSize(lands ? 0 : 2);
        }
        assertThat(values(log)).as("swap landed: %s", lands).containsExactly("a", "b", "c");
      }
    }
  }

  @Test
  void aRangeTrimmedByRetentionCannotBeDecidedAnyMore() throws Exception {
    try (Objlog log = Objlog.open(dropping, stream)) {
      List<AppendResult> held = writeIndeterminate(log, true);
      try (PartitionWriter next = log.openWriter(0, manualCuts())) {
        long floor = next.append(LogRecord.of(3, "d")).lsn();
        next.flush();
        log.requestRetention(0, 1, floor);
        assertThat(next.applyRetention().oldestLsn()).isEqualTo(floor);
        assertThatThrownBy(() -> log.commitStatus(held.subList(1, 3)))
            .isInstanceOfSatisfying(CommitUndecidableException.class, e ->
                assertThat(e.reason()).isEqualTo(CommitUndecidableException.Reason.TRIMMED_BY_RETENTION));
      }
    }
  }

  @Test
  void resultsThatNoWriterOfThisLogCanHaveMadeAreRefused() throws Exception {
    try (Objlog log = Objlog.open(dropping, stream)) {
      List<AppendResult> held = writeIndeterminate(log, true);
      log.openWriter(0, manualCuts()).close();
      AppendResult b = held.get(1);
      AppendResult fromTheFuture = new AppendResult(0, b.writerEpoch() + 5, b.lsn(), b.committed());
      assertThatThrownBy(() -> log.commitStatus(List.of(fromTheFuture))).isInstanceOf(InvalidArgumentException.class);
      AppendResult ofAnotherPartition = new AppendResult(1, b.writerEpoch(), b.lsn(), b.committed());
      assertThatThrownBy(() -> log.commitStatus(List.of(ofAnotherPartition))).isInstanceOf(InvalidArgumentException.class);
    }
  }

  @Test
  void recordsSealedDeepInAMultiLevelCatalogTreeAreDecidedThroughItsPages() throws Exception {
    // Two segments a leaf page, two children an index page: a few commits make several levels.
    ObjlogOptions small = ObjlogOptions.builder().catalogLimits(2, 2).build();
    for (boolean lands : new boolean[] {true, false}) {
      String name = stream + "/" + lands;
      List<AppendResult> held;
      try (Objlog log = Objlog.open(dropping, name, small)) {
        held = writeIndeterminate(log, lands);
        try (PartitionWriter next = log.openWriter(0, manualCuts())) {
          for (int i = 0; i < 12; i++) { // seals the segment of b and c (or of their LSNs) far below the head
            next.append(LogRecord.of(3, "n" + i));
            next.flush();
          }
        }
      }
      try (Objlog fresh = Objlog.open(dropping, name, small)) { // nothing cached: every level is read
        faulty.resetCounts();
        assertThat(fresh.commitStatus(held)).as("swap landed: %s", lands)
            .containsExactly(CommitStatus.COMMITTED,
                lands ? CommitStatus.COMMITTED : CommitStatus.NOT_COMMITTED,
                lands ? CommitStatus.COMMITTED : CommitStatus.NOT_COMMITTED);
        assertThat(faulty.requestCount(Operation.GET) + faulty.requestCount(Operation.GET_RANGE))
            .as("decided through catalog pages below the head, not from the open leaf")
            .isGreaterThan(2);
      }
    }
  }

  @Test
  void oneCallDecidesRecordsOfTwoPartitionsEachByItsOwnCatalog() throws Exception {
    try (Objlog log = Objlog.open(dropping, stream)) {
      List<AppendResult> landed = writeIndeterminate(log, 0, true);
      List<AppendResult> lost = writeIndeterminate(log, 1, false);
      log.openWriter(0, manualCuts()).close();
      log.openWriter(1, manualCuts()).close();
      List<AppendResult> mixed = List.of(lost.get(2), landed.get(1), lost.get(0), landed.get(2), lost.get(1));
      assertThat(log.commitStatus(mixed)).as("in the order asked, each by its partition")
          .containsExactly(CommitStatus.NOT_COMMITTED, CommitStatus.COMMITTED, CommitStatus.COMMITTED,
              CommitStatus.COMMITTED, CommitStatus.NOT_COMMITTED);
    }
  }

  /**
   * Head swaps that time out on the way to the store: never performed, yet reported as possibly
   * performed, since a client cannot tell (the other side of {@link Fault#TIMEOUT}'s coin).
   */
  static final class SwapDroppingStore extends ForwardingObjectStore {
    volatile boolean dropHeadSwaps;

    SwapDroppingStore(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
      if (dropHeadSwaps && key.endsWith("/head.plc")) {
        throw new IndeterminateStoreException("test: the head swap of " + key + " timed out before it reached the store");
      }
      return delegate.compareAndSwap(key, expected, bytes);
    }

    @Override
    public String describe() {
      return "swap-dropping(" + delegate.describe() + ")";
    }
  }
}
