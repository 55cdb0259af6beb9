package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.awaitFailure;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.open;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterClosedException;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.internal.writer.WriterFixtures.Committed;
import dev.objlog.internal.writer.WriterFixtures.StoreKind;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StaleWriterTests {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aSupersededWriterFailsItsNextPublishAndTheNewOwnerContinues(StoreKind kind) {
    var store = kind.open(dir);
    try (Objlog log = open(store)) {
      PartitionWriter first = log.openWriter(PARTITION, manualCuts().build());
      first.append(record(10, "a"));
      first.flush();
      AppendResult buffered = first.append(record(11, "b"));

      PartitionWriter second = log.openWriter(PARTITION, manualCuts().build());
      assertThat(second.state().committed().writerEpoch()).isEqualTo(2);

      assertThatThrownBy(first::flush).isInstanceOf(StaleWriterException.class);
      assertThat(awaitFailure(buffered.committed())).isInstanceOf(StaleWriterException.class);
      assertThat(first.failure()).containsInstanceOf(StaleWriterException.class);
      assertThatThrownBy(() -> first.append(record(12, "c")))
          .isInstanceOf(WriterClosedException.class)
          .hasCauseInstanceOf(StaleWriterException.class);

      AppendResult next = second.append(record(11, "c"));
      assertThat(next.lsn()).as("the new owner continues from the committed next LSN").isEqualTo(1);
      second.close();
      first.close();

      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactly("a", "c");
      assertThat(committed.segments()).extracting(LeafEntry::writerEpoch).containsExactly(1L, 2L);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void segmentsInFlightDuringATakeoverAreNeverCommittedBehindTheNewOwner(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = open(store)) {
      PartitionWriter first = log.openWriter(PARTITION, manualCuts().batch(Duration.ZERO, 1L << 20, 1).build());
      first.append(record(1, "committed"));
      first.flush();
      store.closeUploadGate();
      AppendResult x = first.append(record(2, "in-flight-1"));
      AppendResult y = first.append(record(2, "in-flight-2"));

      PartitionWriter second = log.openWriter(PARTITION, manualCuts().build());
      store.openUploadGate();
      assertThat(awaitFailure(x.committed())).isInstanceOf(StaleWriterException.class);
      assertThat(awaitFailure(y.committed())).isInstanceOf(StaleWriterException.class);

      second.append(record(3, "new-owner"));
      assertThat(second.flush().nextLsn()).isEqualTo(2);
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactly("committed", "new-owner");
      assertThat(committed.head().writerEpoch()).isEqualTo(2);
      second.close();
      first.close();
    } finally {
      store.openUploadGate();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aWriterReopenedWithItsOwnIdStillFencesTheEarlierIncarnation(StoreKind kind) {
    var store = kind.open(dir);
    byte[] id = new byte[16];
    id[15] = 7;
    try (Objlog log = open(store)) {
      PartitionWriter first = log.openWriter(PARTITION, manualCuts().writerId(id).build());
      first.append(record(1, "a"));
      PartitionWriter second = log.openWriter(PARTITION, manualCuts().writerId(id).build());
      assertThatThrownBy(first::flush).isInstanceOf(StaleWriterException.class);
      second.append(record(1, "b"));
      assertThat(await(second.flushAsync()).nextLsn()).isEqualTo(1);
      second.close();
      assertThat(readCommitted(store, PARTITION).values()).containsExactly("b");
    }
  }
}
