package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.read.Cursor;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The writer and the reader together, through the public API only. */
class LogEndToEndTests {

  @TempDir static Path root;

  static Stream<Arguments> stores() {
    return Stream.of(
        Arguments.of("memory", new MemoryObjectStore()),
        Arguments.of("filesystem", FilesystemObjectStore.open(root.resolve("bucket"))));
  }

  private static WriterOptions smallBatches() {
    return WriterOptions.builder().batch(new WriterOptions.BatchPolicy(Duration.ofHours(1), 64L << 20, 3)).build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void whatTheWriterCommitsTheReaderReadsByLsnTimestampAndCursor(String name, ObjectStore store) throws Exception {
    try (Objlog log = Objlog.open(store, "e2e/" + name, ObjlogOptions.builder().catalogLimits(2, 2).build());
        PartitionWriter writer = log.openWriter(0, smallBatches())) {
      for (int i = 0; i < 20; i++) {
        writer.append(LogRecord.of(1_000 + i / 2, "record-" + i));
      }
      PartitionHead head = writer.flush();
      assertThat(head.nextLsn()).isEqualTo(20);

      PartitionReader reader = log.reader().partition(0);
      ReadResult all = reader.read(0, 100, dev.objlog.read.Freshness.LATEST);
      assertThat(all.records()).extracting(ReadRecord::valueAsString)
          .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).mapToObj(i -> "record-" + i).toList());
      assertThat(all.records()).extracting(ReadRecord::lsn).isSorted();
      assertThat(all.nextLsn()).isEqualTo(20);

      assertThat(reader.readFromTimestamp(1_005, 1).records()).extracting(ReadRecord::lsn).containsExactly(10L);
      assertThat(reader.fetch(13)).map(ReadRecord::valueAsString).hasValue("record-13");
      assertThat(reader.read(20, 10).records()).isEmpty();

      Cursor cursor = reader.cursor(0, 7);
      assertThat(cursor.next().records()).hasSize(7);
      CursorCheckpoint checkpoint = cursor.checkpoint();
      assertThat(checkpoint.toJson())
          .isEqualTo("{\"version\":1,\"stream_id\":\"e2e/" + name + "\",\"partition\":0,\"next_lsn\":7}");
      Cursor resumed = reader.resume(CursorCheckpoint.parse(checkpoint.toJson()), 100);
      assertThat(resumed.next().records()).extracting(ReadRecord::lsn).first().isEqualTo(7L);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void aCommitInThisJvmWakesATailerWithoutWaitingForTheHourlyPoll(String name, ObjectStore store) throws Exception {
    ReaderOptions hourlyPoll = ReaderOptions.builder().pollInterval(Duration.ofHours(1)).build();
    try (Objlog log = Objlog.open(store, "tail/" + name);
        PartitionWriter writer = log.openWriter(0, smallBatches());
        LogReader reader = log.newReader(hourlyPoll);
        Watch watch = reader.watch(0)) {
      writer.append(LogRecord.of(1, "before"));
      writer.flush();
      Tailer tailer = watch.tail(0, 0, 100);
      assertThat(tailer.next(Duration.ofSeconds(30)).records()).extracting(ReadRecord::valueAsString)
          .containsExactly("before");

      CompletableFuture<ReadResult> waiting = CompletableFuture.supplyAsync(() -> {
        try {
          return tailer.next();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      writer.append(LogRecord.of(2, "after"));
      writer.flush();
      // Bounded wait, not a timing assertion: with an hourly poll only the local commit can wake it.
      assertThat(waiting.get(30, TimeUnit.SECONDS).records()).extracting(ReadRecord::valueAsString)
          .containsExactly("after");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stores")
  void aSupersededWriterFailsAndTheNewOwnerContinuesTheSameLog(String name, ObjectStore store) throws Exception {
    try (Objlog log = Objlog.open(store, "fence/" + name)) {
      PartitionWriter first = log.openWriter(0, smallBatches());
      first.append(LogRecord.of(1, "a"));
      first.flush();
      try (PartitionWriter second = log.openWriter(0, smallBatches())) {
        AppendResult late = first.append(LogRecord.of(2, "stale"));
        assertThatThrownBy(first::flush).isInstanceOf(StaleWriterException.class);
        assertThat(late.committed()).isCompletedExceptionally();
        assertThat(second.append(LogRecord.of(3, "b")).lsn()).isEqualTo(1);
        second.flush();
      }
      List<String> values = log.reader().partition(0).read(0, 10, dev.objlog.read.Freshness.LATEST).records()
          .stream().map(ReadRecord::valueAsString).toList();
      assertThat(values).containsExactly("a", "b");
    }
  }
}
