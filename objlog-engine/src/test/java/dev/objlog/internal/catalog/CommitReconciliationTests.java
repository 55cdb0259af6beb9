package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.keys;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segment;
import static dev.objlog.internal.catalog.CatalogTestSupport.segments;
import static dev.objlog.internal.catalog.CatalogTestSupport.uuid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.StaleWriterException;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.internal.catalog.CatalogTestSupport.StoreKind;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Ambiguous and conflicting head swaps during publish (PROTOCOLS.md §5.2). */
class CommitReconciliationTests {

  @TempDir Path dir;

  private FaultInjectingObjectStore faulty(StoreKind kind, long seed) {
    return FaultInjectingObjectStore.builder(kind.open(dir))
        .seed(seed)
        .timeout(java.time.Duration.ZERO)
        .sleeper(d -> {})
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aLostReplyOnTheHeadSwapIsReconciledAsCommittedWithoutADuplicate(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 1);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    session.publish(segments(session, 0, 3, 2, 0));
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));
    store.resetCounts();
    List<LeafEntry> group = segments(session, 6, 4, 2, 30);

    PublishResult result = session.publish(group);

    assertThat(result.reconciled()).isTrue();
    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(2);
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head).isEqualTo(result.head());
    assertThat(head.segmentCount()).isEqualTo(7);
    assertThat(catalog.listSegments(head, 0, 100).segments()).hasSize(7).endsWith(group.get(3));
    // The session adopted the real token: the next publish swaps cleanly.
    assertThat(session.publish(List.of(segment(session, 14, 1, 70, 70))).reconciled()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anErrorBeforeTheSwapIsRetriedAndCommitsOnce(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 2);
    PartitionCatalog catalog = catalog(store, options(4, 4));
    FencedSession session = catalog.takeover(id(1));
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.ERROR_BEFORE, 2));
    store.resetCounts();

    PublishResult result = session.publish(segments(session, 0, 2, 5, 0));

    assertThat(result.reconciled()).isFalse();
    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(3);
    assertThat(catalog.loadHead().orElseThrow().head().segmentCount()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void errorsBeforeEverySwapLeaveTheHeadUnchangedAndTheSessionRetryable(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 3);
    PartitionCatalog catalog = catalog(store, options(4, 4));
    FencedSession session = catalog.takeover(id(1));
    byte[] before = store.get(catalog.headKey()).bytes();
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.ERROR_BEFORE, 3));
    List<LeafEntry> group = segments(session, 0, 2, 5, 0);

    assertThatThrownBy(() -> session.publish(group))
        .isInstanceOf(TransientStoreException.class)
        .hasMessageContaining("not committed");

    assertThat(store.get(catalog.headKey()).bytes()).isEqualTo(before);
    assertThat(session.isUsable()).isTrue();
    assertThat(session.publish(group).head().segmentCount()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anotherSegmentOwningTheRangeIsATerminalConflict(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 4);
    PartitionCatalog catalog = catalog(store, options(4, 4));
    FencedSession session = catalog.takeover(id(1));
    session.publish(List.of(segment(session, 0, 5, 0, 1)));
    // Someone with the same fence (a bug or a cloned writer) commits a different segment at 5.
    Head current = session.head().head();
    LeafEntry rogue = segment(session, 5, 3, 2, 3);
    rogue = new LeafEntry(rogue.baseLsn(), rogue.lastLsn(), rogue.minTimestampMs(),
        rogue.maxTimestampMs(), rogue.recordCount(), rogue.blockCount(), rogue.sizeBytes(),
        rogue.blockIndexOffset(), rogue.blockIndexLength(), rogue.codec(), rogue.hashAlgorithm(),
        rogue.segmentHash(), rogue.trailerHash(), rogue.writerEpoch(), uuid(999), rogue.writerTag());
    Mutation other = CatalogMutations.append(current, List.of(rogue), keys());
    StoredObject stored = store.get(catalog.headKey());
    assertThat(store.compareAndSwap(catalog.headKey(), stored.token(), other.headBytes()).swapped()).isTrue();

    assertThatThrownBy(() -> session.publish(List.of(segment(session, 5, 3, 2, 3))))
        .isInstanceOf(CatalogConflictException.class)
        .hasMessageContaining("conflicts");
    assertThat(session.isUsable()).isFalse();
    assertThat(catalog.loadHead().orElseThrow().head().lastSegment()).isEqualTo(rogue);
    assertThatThrownBy(() -> session.publish(List.of(segment(session, 8, 1, 4, 4))))
        .isInstanceOf(CatalogConflictException.class);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aTimedOutSwapWithAnUnreadableHeadIsIndeterminateAndTerminal(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 5);
    PartitionCatalog catalog = catalog(store, options(4, 4));
    FencedSession session = catalog.takeover(id(1));
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, 3));
    store.addRule(FaultRule.next(Operation.GET, Fault.ERROR_BEFORE, 1));
    List<LeafEntry> group = segments(session, 0, 2, 5, 0);

    assertThatThrownBy(() -> session.publish(group))
        .isInstanceOf(CommitIndeterminateException.class)
        .hasMessageContaining("may or may not have committed");

    assertThat(session.isUsable()).isFalse();
    assertThatThrownBy(() -> session.publish(group)).isInstanceOf(CommitIndeterminateException.class);
    // The catalog tells the final truth: either the whole group is there or none of it.
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.segmentCount()).isIn(0L, 2L);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {6, 7, 8, 9, 10, 11})
  void timeoutsWithAReadableHeadAlwaysSettleTheOutcome(long seed) {
    // TIMEOUT applies the swap or not by a seeded coin; the read-back must tell which.
    FaultInjectingObjectStore store = faulty(StoreKind.MEMORY, seed);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, 3));
    List<LeafEntry> group = segments(session, 0, 3, 1, 0);

    boolean committed;
    try {
      committed = session.publish(group).head().segmentCount() == 3;
    } catch (TransientStoreException notCommitted) {
      committed = false;
    }

    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.segmentCount()).as("seed " + seed).isEqualTo(committed ? 3 : 0);
    assertThat(session.isUsable()).as("seed " + seed).isTrue();
    if (!committed) {
      assertThat(session.publish(group).head().segmentCount()).as("seed " + seed).isEqualTo(3);
    }
    assertThat(catalog.verifyTree(catalog.loadHead().orElseThrow().head()).segments()).isEqualTo(3);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aLostReplyOnAPageWriteIsIdempotent(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 12);
    PartitionCatalog catalog = catalog(store, options(1, 2));
    FencedSession session = catalog.takeover(id(1));
    store.addRule(FaultRule.next(Operation.PUT_IF_ABSENT, Fault.LOST_REPLY, 1));
    store.resetCounts();

    PublishResult result = session.publish(List.of(segment(session, 0, 4, 0, 1)));

    // One leaf sealed: written, reply lost, retried (already exists), compared byte for byte.
    assertThat(store.requestCount(Operation.PUT_IF_ABSENT)).isEqualTo(2);
    assertThat(store.requestCount(Operation.GET)).isEqualTo(1);
    assertThat(result.reconciled()).isFalse();
    assertThat(catalog.verifyTree(result.head()).leafPages()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aCommitThatLandedBeforeATakeoverStandsButTheSessionIsStaleAfterwards(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 13);
    Runnable[] duringBackoff = {() -> {}};
    CatalogOptions options = options(4, 4).toBuilder().sleeper(d -> duringBackoff[0].run()).build();
    PartitionCatalog catalog = catalog(store, options);
    FencedSession old = catalog.takeover(id(1));
    List<LeafEntry> group = segments(old, 0, 2, 1, 0);
    // The old writer's swap lands but its reply is lost; before its retry, a new writer takes over.
    duringBackoff[0] = () -> {
      duringBackoff[0] = () -> {};
      catalog(store, options(4, 4)).takeover(id(2));
    };
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));

    PublishResult result = old.publish(group);

    assertThat(result.reconciled()).isTrue();
    assertThat(result.head().lastSegment()).isEqualTo(group.get(1));
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.writerId()).isEqualTo(id(2));
    assertThat(head.segmentCount()).isEqualTo(2);
    assertThat(old.head().head()).isEqualTo(head);
    assertThatThrownBy(() -> old.publish(List.of(segment(old, 2, 1, 1, 1))))
        .isInstanceOf(StaleWriterException.class);
  }
}
