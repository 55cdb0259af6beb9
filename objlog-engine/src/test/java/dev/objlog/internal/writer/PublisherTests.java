package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.AppendResult;
import dev.objlog.PartitionHead;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterDeadlineExceededException;
import dev.objlog.WriterOptions;
import dev.objlog.format.catalog.Id128;
import dev.objlog.store.TransientStoreException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The publisher on its own terms: ready segments commit in cut order, together in one head swap;
 * a commit that definitely did not happen is retried with the same group until the publish
 * deadline on elapsed time; a terminal answer fails the group and the writer.
 */
class PublisherTests {

  private static Throwable failureOf(AppendResult appended) {
    assertThat(appended.committed()).isCompletedExceptionally();
    try {
      appended.committed().join();
      throw new AssertionError("not failed");
    } catch (CompletionException e) {
      return e.getCause();
    }
  }

  @Test
  void segmentsReadyTogetherCommitInCutOrderWithOneHeadSwap() {
    try (WriterParts parts = new WriterParts(manualCuts().build())) {
      parts.autoPublish = false;
      AppendResult a = parts.batcher.append(record(1, "a"));
      parts.batcher.cut();
      AppendResult b = parts.batcher.append(record(2, "b"));
      parts.batcher.cut();
      parts.runAll();
      assertThat(parts.ready).hasSize(2);
      int takeoverSwaps = parts.store.headSwapCalls.get();

      parts.publisher.kick();
      parts.runAll();

      PartitionHead head = a.committed().join();
      assertThat(b.committed().join()).as("both futures carry the one committing head").isEqualTo(head);
      assertThat(head.nextLsn()).isEqualTo(2);
      assertThat(parts.store.headSwapCalls.get() - takeoverSwaps).as("head swaps").isEqualTo(1);
      assertThat(parts.ready).allSatisfy(s -> assertThat(s.stage).isEqualTo(Segment.Stage.COMMITTED));
      assertThat(readCommitted(parts.store, PARTITION).values()).containsExactly("a", "b");
    }
  }

  @Test
  void aCommitThatDefinitelyFailedIsRetriedWithTheSameGroupAfterABackoff() {
    try (WriterParts parts = new WriterParts(manualCuts().build())) {
      // Each try of the publisher is one swap (and a head read-back when it fails).
      int takeoverSwaps = parts.store.headSwapCalls.get();
      parts.store.onHeadSwap(call -> {
        if (call - takeoverSwaps <= 4) {
          throw new TransientStoreException("head swap " + call + " refused by the test", false);
        }
      });
      AppendResult a = parts.batcher.append(record(1, "a"));
      parts.batcher.cut();

      parts.runAll();

      assertThat(parts.failures).isEmpty();
      assertThat(a.committed().join().nextLsn()).isEqualTo(1);
      assertThat(parts.store.headSwapCalls.get() - takeoverSwaps).as("head swaps").isEqualTo(5);
      assertThat(readCommitted(parts.store, PARTITION).values()).containsExactly("a");
    }
  }

  @Test
  void aCommitStillFailingPastCatalogPublishFailsTheGroupWithTheTypedDeadline() {
    Duration publish = Duration.ofSeconds(30);
    WriterOptions options = manualCuts().timeouts(new WriterOptions.Timeouts(Duration.ofMinutes(5), publish)).build();
    try (WriterParts parts = new WriterParts(options)) {
      parts.store.onHeadSwap(call -> {
        parts.ticker.advance(Duration.ofSeconds(4));
        throw new TransientStoreException("head swap " + call + " refused by the test", false);
      });
      AppendResult a = parts.batcher.append(record(1, "a"));
      parts.batcher.cut();

      parts.runAll();

      assertThat(failureOf(a)).isInstanceOfSatisfying(WriterDeadlineExceededException.class, late -> {
        assertThat(late.deadline()).isEqualTo(WriterDeadlineExceededException.Deadline.CATALOG_PUBLISH);
        assertThat(late.limit()).isEqualTo(publish);
        assertThat(late.elapsed()).as("eight tries of one swap, 4 s each").isEqualTo(Duration.ofSeconds(32));
        assertThat(late).hasRootCauseInstanceOf(TransientStoreException.class);
      });
      assertThat(parts.failures).singleElement().isSameAs(failureOf(a));
      assertThat(parts.ready).allSatisfy(s -> assertThat(s.stage).isEqualTo(Segment.Stage.ABANDONED));
    }
  }

  @Test
  void aTakeoverBeforeTheCommitFailsTheGroupAndTheWriterAsStale() {
    try (WriterParts parts = new WriterParts(manualCuts().build())) {
      parts.autoPublish = false;
      AppendResult a = parts.batcher.append(record(1, "a"));
      parts.batcher.cut();
      parts.runAll();
      parts.runtime.catalog(PARTITION).takeover(Id128.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));

      parts.publisher.kick();
      parts.runAll();

      assertThat(failureOf(a)).isInstanceOf(StaleWriterException.class);
      assertThat(parts.failures).singleElement().isInstanceOf(StaleWriterException.class);
      assertThat(readCommitted(parts.store, PARTITION).values()).isEmpty();
    }
  }
}
