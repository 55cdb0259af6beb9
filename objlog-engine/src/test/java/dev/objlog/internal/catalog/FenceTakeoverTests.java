package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.StaleWriterException;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.internal.catalog.CatalogTestSupport.StoreKind;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.VersionToken;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Writer takeover and partition initialization (FORMAT.md §2.9, PROTOCOLS.md §5.1). */
class FenceTakeoverTests {

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void firstWriterCreatesTheHeadAtEpochAndGenerationOne(StoreKind kind) {
    PartitionCatalog catalog = catalog(kind.open(dir), options(4, 4));
    assertThat(catalog.loadHead()).isEmpty();

    FencedSession session = catalog.takeover(id(1));

    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.writerEpoch()).isEqualTo(1);
    assertThat(head.generation()).isEqualTo(1);
    assertThat(head.writerId()).isEqualTo(id(1));
    assertThat(head.nextLsn()).isZero();
    assertThat(head.hasLastSegment()).isFalse();
    assertThat(session.writerEpoch()).isEqualTo(1);
    assertThat(session.head().head()).isEqualTo(head);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void secondTakeoverRaisesTheEpochAndKeepsTheFrontier(StoreKind kind) {
    PartitionCatalog catalog = catalog(kind.open(dir), options(4, 4));
    FencedSession first = catalog.takeover(id(1));
    first.publish(List.of(segment(first, 0, 10, 100, 110)));

    FencedSession second = catalog.takeover(id(2));

    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(second.writerEpoch()).isEqualTo(2);
    assertThat(head.writerEpoch()).isEqualTo(2);
    assertThat(head.generation()).isEqualTo(3);
    assertThat(head.writerId()).isEqualTo(id(2));
    // Takeover changes no page and keeps the open leaf: the old epoch's entry stays reachable.
    assertThat(head.active()).hasSize(1);
    assertThat(head.nextLsn()).isEqualTo(10);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aSupersededSessionIsStaleAndWritesNothingBehindTheNewOwner(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    PartitionCatalog catalog = catalog(store, options(1, 2));
    FencedSession old = catalog.takeover(id(1));
    old.publish(List.of(segment(old, 0, 5, 100, 101)));
    FencedSession owner = catalog.takeover(id(2));
    byte[] ownerHead = store.get(catalog.headKey()).bytes();

    assertThatThrownBy(() -> old.publish(List.of(segment(old, 5, 5, 102, 103))))
        .isInstanceOf(StaleWriterException.class);

    assertThat(store.get(catalog.headKey()).bytes()).isEqualTo(ownerHead);
    assertThat(old.isUsable()).isFalse();
    // Terminal: the old session keeps refusing, even for a segment the owner could accept.
    assertThatThrownBy(() -> old.publish(List.of(segment(old, 5, 5, 102, 103))))
        .isInstanceOf(StaleWriterException.class);
    PublishResult result = owner.publish(List.of(segment(owner, 5, 5, 102, 103)));
    assertThat(result.head().segmentCount()).isEqualTo(2);
    assertThat(catalog.verifyTree(result.head()).segments()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void initializePartitionCreatesOnceAndThenReturnsTheExistingHead(StoreKind kind) {
    PartitionCatalog catalog = catalog(kind.open(dir), options(4, 4));

    InitializeResult created = catalog.initializePartition(42);
    InitializeResult existing = catalog.initializePartition(7);

    assertThat(created.created()).isTrue();
    Head head = created.head().head();
    assertThat(head.nextLsn()).isEqualTo(42);
    assertThat(head.oldestLsn()).isEqualTo(42);
    assertThat(head.generation()).isZero();
    assertThat(head.writerEpoch()).isZero();
    assertThat(existing.created()).isFalse();
    assertThat(existing.head().head()).isEqualTo(head);

    FencedSession session = catalog.takeover(id(3));
    assertThat(session.head().head().nextLsn()).isEqualTo(42);
    assertThatThrownBy(() -> session.publish(List.of(segment(session, 0, 1, 1, 1))))
        .isInstanceOf(CatalogConflictException.class);
    PublishResult result = session.publish(List.of(segment(session, 42, 3, 1, 2)));
    assertThat(result.head().oldestLsn()).isEqualTo(42);
    assertThat(result.head().nextLsn()).isEqualTo(45);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aLostReplyOnTheFenceSwapIsRecognisedAsOurTakeover(StoreKind kind) {
    FaultInjectingObjectStore store =
        FaultInjectingObjectStore.builder(kind.open(dir))
            .rule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1))
            .build();
    PartitionCatalog catalog = catalog(store, options(4, 4));
    catalog.takeover(id(1));
    store.resetCounts();
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));

    FencedSession session = catalog.takeover(id(2));

    assertThat(session.writerEpoch()).isEqualTo(2);
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.writerEpoch()).isEqualTo(2);
    assertThat(head.writerId()).isEqualTo(id(2));
    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(2);
    // The session holds the real token: its first publish swaps cleanly.
    PublishResult result = session.publish(List.of(segment(session, 0, 1, 5, 5)));
    assertThat(result.reconciled()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aTakeoverWhoseOutcomeCannotBeReadBackIsFenceIndeterminate(StoreKind kind) {
    FaultInjectingObjectStore[] holder = new FaultInjectingObjectStore[1];
    CatalogOptions options =
        CatalogOptions.builder()
            .limits(4, 4)
            .fence(2, java.time.Duration.ZERO, java.time.Duration.ZERO)
            // The head read before the loop must succeed; the read-back after it must not.
            .sleeper(d -> holder[0].addRule(FaultRule.next(Operation.GET, Fault.ERROR_BEFORE, 1)))
            .build();
    holder[0] =
        FaultInjectingObjectStore.builder(kind.open(dir))
            .seed(11)
            .timeout(java.time.Duration.ZERO)
            .rule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, 2))
            .build();
    PartitionCatalog catalog = catalog(holder[0], options);

    assertThatThrownBy(() -> catalog.takeover(id(1)))
        .isInstanceOf(FenceIndeterminateException.class)
        .hasMessageContaining("unknown outcome");
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anExhaustedEpochCannotBeTakenOver(StoreKind kind) {
    ObjectStore store = kind.open(dir);
    PartitionCatalog catalog = catalog(store, options(4, 4));
    Head full =
        CatalogMutations.emptyHead(catalog.identity(), options(4, 4), 0).toBuilder()
            .writerEpoch(-1L)
            .writerId(id(9))
            .generation(5)
            .build();
    store.compareAndSwap(catalog.headKey(), VersionToken.ABSENT, CatalogCodec.encodeHead(full));

    assertThatThrownBy(() -> catalog.takeover(id(1)))
        .isInstanceOfSatisfying(CatalogExhaustedException.class,
            e -> assertThat(e.resource()).isEqualTo(CatalogExhaustedException.Resource.WRITER_EPOCH));
    assertThatThrownBy(() -> catalog.takeover(Id128.ZERO)).isInstanceOf(InvalidArgumentException.class);
  }
}
