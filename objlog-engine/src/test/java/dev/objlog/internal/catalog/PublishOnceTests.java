package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link FencedSession#publishOnce}, the writer's try of a group commit: every request sent once,
 * an unclear swap reconciled by one head read-back, and the retry left to the caller.
 */
class PublishOnceTests {
  private final FaultInjectingObjectStore store = FaultInjectingObjectStore.builder(new MemoryObjectStore())
      .timeout(Duration.ZERO).sleeper(d -> {}).build();
  private final PartitionCatalog catalog = catalog(store, options(4, 4));
  private final FencedSession session = catalog.takeover(id(1));
  private final List<LeafEntry> group = segments(session, 0, 2, 5, 0);

  @Test
  void aSwapRefusedBeforeTheStoreIsOneTryAndNotCommittedAndTheNextTryCommits() {
    byte[] before = store.get(catalog.headKey()).bytes();
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.ERROR_BEFORE, 1));
    store.resetCounts();

    assertThatThrownBy(() -> session.publishOnce(group)).isInstanceOf(TransientStoreException.class)
        .hasMessageContaining("not committed");

    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).as("swaps of one try").isEqualTo(1);
    assertThat(store.get(catalog.headKey()).bytes()).isEqualTo(before);
    assertThat(session.isUsable()).isTrue();
    assertThat(session.publishOnce(group).head().segmentCount()).isEqualTo(2);
    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(2);
  }

  @Test
  void aSwapWhoseReplyWasLostIsRecognisedByOneReadBack() {
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 1));
    store.resetCounts();

    PublishResult result = session.publishOnce(group);

    assertThat(result.reconciled()).isTrue();
    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(1);
    assertThat(catalog.loadHead().orElseThrow().head()).isEqualTo(result.head());
  }

  @Test
  void anUnclearSwapWithAnUnreadableHeadIsIndeterminateAndTerminal() {
    store.addRule(FaultRule.next(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, 1));
    store.addRule(FaultRule.next(Operation.GET, Fault.ERROR_BEFORE, 1));

    assertThatThrownBy(() -> session.publishOnce(group)).isInstanceOf(CommitIndeterminateException.class)
        .hasMessageContaining("may or may not have committed");

    assertThat(session.isUsable()).isFalse();
  }

  @Test
  void aHeadWhoseTokenMovedWithoutItsContentIsNotCommittedAndTheNextTrySwapsAgainstTheNewToken() {
    StoredObject stored = store.get(catalog.headKey());
    assertThat(store.compareAndSwap(catalog.headKey(), stored.token(), stored.bytes()).swapped()).isTrue();
    assertThat(store.get(catalog.headKey()).token()).as("the rewrite's new token").isNotEqualTo(stored.token());
    store.resetCounts();

    assertThatThrownBy(() -> session.publishOnce(group)).isInstanceOf(TransientStoreException.class)
        .hasMessageContaining("token changed without its content");

    assertThat(session.isUsable()).isTrue();
    PublishResult result = session.publishOnce(group);
    assertThat(result.reconciled()).isFalse();
    assertThat(result.head().segmentCount()).isEqualTo(2);
    assertThat(store.requestCount(Operation.COMPARE_AND_SWAP)).isEqualTo(2);
  }
}
