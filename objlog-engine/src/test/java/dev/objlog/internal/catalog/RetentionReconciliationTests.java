package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segment;
import static dev.objlog.internal.catalog.CatalogTestSupport.segments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.StaleWriterException;
import dev.objlog.format.catalog.Head;
import dev.objlog.internal.catalog.CatalogTestSupport.StoreKind;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Ambiguous and conflicting head swaps while applying retention (PROTOCOLS.md §5.7). */
class RetentionReconciliationTests {

  @TempDir Path dir;

  private FaultInjectingObjectStore faulty(StoreKind kind, long seed) {
    return FaultInjectingObjectStore.builder(kind.open(dir))
        .seed(seed)
        .timeout(Duration.ZERO)
        .sleeper(d -> {})
        .build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aLostReplyOnTheRetentionSwapIsRecognisedAsApplied(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 11);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    session.publish(segments(session, 0, 9, 2, 0));
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));

    RetentionApplyResult result = session.applyRetention(1, 7);

    assertThat(result.applied()).isTrue();
    assertThat(result.reconciled()).isTrue();
    assertThat(result.oldestLsn()).isEqualTo(6);
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.appliedRetentionVersion()).isEqualTo(1);
    assertThat(catalog.verifyTree(head).segments()).isEqualTo(6);
    // The session adopted the real token: the next publish swaps cleanly.
    assertThat(session.publish(List.of(segment(session, 18, 1, 100, 100))).reconciled()).isFalse();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anUnknownOutcomeIsNotTerminalAndTheNextCallFinishesIt(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 12);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    session.publish(segments(session, 0, 9, 2, 0));
    // Every swap attempt lands but its reply is lost, then the read-back fails too.
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));
    store.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP, Operation.GET), catalog.headKey(),
        Fault.ERROR_BEFORE, 20));

    assertThatThrownBy(() -> session.applyRetention(1, 7))
        .isInstanceOf(CommitIndeterminateException.class);
    assertThat(session.isUsable()).isTrue();
    store.clearRules();

    RetentionApplyResult finished = session.applyRetention(1, 7);
    assertThat(finished.applied()).isTrue();
    assertThat(finished.reconciled()).isTrue();
    assertThat(finished.oldestLsn()).isEqualTo(6);
    // Nothing more to do for the same request, and publishing continues on the adopted head.
    assertThat(session.applyRetention(1, 7).applied()).isFalse();
    session.publish(List.of(segment(session, 18, 1, 100, 100)));
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(catalog.verifyTree(head).segments()).isEqualTo(7);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anUnknownOutcomeThatDidNotLandIsRetriedByTheNextCall(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 13);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession session = catalog.takeover(id(1));
    session.publish(segments(session, 0, 9, 2, 0));
    // Every swap fails in a way that may have taken effect (it did not), and the read-back fails.
    store.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP, Operation.GET), catalog.headKey(),
        Fault.ERROR_BEFORE, 2));
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, 1));
    store.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP, Operation.GET), catalog.headKey(),
        Fault.ERROR_BEFORE, 20));
    try {
      session.applyRetention(1, 7);
    } catch (CommitIndeterminateException | TransientStoreException expected) {
      // Either answer is honest here; what matters is what the next call does.
    }
    store.clearRules();

    // A publish first settles the pending retention, then goes on.
    session.publish(List.of(segment(session, 18, 1, 100, 100)));
    RetentionApplyResult result = session.applyRetention(1, 7);
    Head head = catalog.loadHead().orElseThrow().head();
    assertThat(head.appliedRetentionVersion()).isEqualTo(1);
    assertThat(head.oldestLsn()).isEqualTo(6);
    assertThat(result.head()).isEqualTo(head);
    assertThat(catalog.verifyTree(head).segments()).isEqualTo(7);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void retentionByASupersededWriterIsRefused(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind, 14);
    PartitionCatalog catalog = catalog(store, options(2, 2));
    FencedSession old = catalog.takeover(id(1));
    old.publish(segments(old, 0, 5, 2, 0));
    catalog.takeover(id(2));

    assertThatThrownBy(() -> old.applyRetention(1, 4)).isInstanceOf(StaleWriterException.class);
    assertThat(old.isUsable()).isFalse();
    assertThat(catalog.loadHead().orElseThrow().head().appliedRetentionVersion()).isZero();
  }
}
