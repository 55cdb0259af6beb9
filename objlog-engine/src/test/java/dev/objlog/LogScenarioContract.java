package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.Head;
import dev.objlog.read.CheckpointAheadException;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.Cursor;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The log's key scenarios (PROTOCOLS.md §5.1–5.6) through the public API only, as one suite that
 * each store's test class extends: what the writer commits the reader reads, the catalog cascades
 * over several index levels, a lost reply on the head write is reconciled, a superseded writer
 * stops, a local commit wakes a tailer, cursors resume and refuse bad checkpoints.
 */
public abstract class LogScenarioContract {

  /** The store under test; each test works in its own stream, so one store per class is fine. */
  protected abstract ObjectStore store() throws Exception;

  private ObjectStore store;
  private String stream;

  @BeforeEach
  void pickStream() throws Exception {
    store = store();
    stream = "scenarios/" + getClass().getSimpleName() + "/" + UUID.randomUUID();
  }

  @AfterEach
  void nothingToRelease() {
    // Stores belong to the subclass; logs are closed by each test.
  }

  private static WriterOptions cutEvery(int records) {
    return WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, records).build();
  }

  private static List<String> values(ReadResult result) {
    return result.records().stream().map(ReadRecord::valueAsString).toList();
  }

  @Test
  void whatTheWriterCommitsTheReaderReadsByLsnTimestampFetchAndCursor() throws Exception {
    try (Objlog log = Objlog.open(store, stream, ObjlogOptions.builder().catalogLimits(2, 2).build());
        PartitionWriter writer = log.openWriter(0, cutEvery(3))) {
      for (int i = 0; i < 20; i++) {
        writer.append(LogRecord.of(1_000 + i / 2, "record-" + i));
      }
      assertThat(writer.flush().nextLsn()).isEqualTo(20);

      PartitionReader reader = log.reader().partition(0);
      ReadResult all = reader.read(0, 100, Freshness.LATEST);
      assertThat(values(all)).containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "record-" + i).toList());
      assertThat(all.records()).extracting(ReadRecord::lsn).isSorted();
      assertThat(all.nextLsn()).isEqualTo(20);
      assertThat(reader.readFromTimestamp(1_005, 1).records()).extracting(ReadRecord::lsn).containsExactly(10L);
      assertThat(reader.fetch(13)).map(ReadRecord::valueAsString).hasValue("record-13");
      assertThat(reader.read(20, 10).records()).isEmpty();

      Cursor cursor = reader.cursor(0, 7);
      assertThat(cursor.next().records()).hasSize(7);
      CursorCheckpoint checkpoint = cursor.checkpoint();
      assertThat(checkpoint.toJson())
          .isEqualTo("{\"version\":1,\"stream_id\":\"" + stream + "\",\"partition\":0,\"next_lsn\":7}");
      Cursor resumed = reader.resume(CursorCheckpoint.parse(checkpoint.toJson()), 100);
      assertThat(resumed.next().records()).extracting(ReadRecord::lsn).first().isEqualTo(7L);
    }
  }

  @Test
  void theCatalogCascadesOverThreeIndexLevelsAndLookupsCrossEveryPage() throws Exception {
    try (Objlog log = Objlog.open(store, stream, ObjlogOptions.builder().catalogLimits(2, 2).build());
        PartitionWriter writer = log.openWriter(0, cutEvery(1))) {
      for (int i = 0; i < 17; i++) {
        writer.append(LogRecord.of(i, "s" + i)).committed().get(30, TimeUnit.SECONDS);
      }
      // 17 one-record segments with fan-out 2: sealed pages up to level 3, open sections above.
      Head head = CatalogCodec.decodeHead(store.get(log.runtime().catalog(0).headKey()).bytes());
      assertThat(head.levelCount()).isGreaterThanOrEqualTo(3);
      assertThat(log.runtime().catalog(0).verifyTree(head).levels()).isGreaterThanOrEqualTo(3);

      PartitionReader reader = log.newReader(ReaderOptions.defaults()).partition(0);
      for (int lsn = 0; lsn < 17; lsn++) {
        assertThat(reader.fetch(lsn)).as("fetch %d", lsn).map(ReadRecord::valueAsString).hasValue("s" + lsn);
        assertThat(reader.readFromTimestamp(lsn, 1).records()).extracting(ReadRecord::lsn).containsExactly((long) lsn);
      }
    }
  }

  /**
   * The largest record FORMAT.md allows, hit exactly: a 4 MiB value and a headers area of exactly
   * 262 144 bytes over 64 headers (one with the longest key, one with the longest value, one
   * empty value). It is appended, committed and read back by LSN byte for byte; then one byte more
   * in the value or the headers area, a 65th header, a key or header value one byte over, are each
   * a typed error, and nothing more is written to the bucket.
   */
  @Test
  void aRecordOfTheMaximumSizeRoundTripsAndOneByteMoreIsRefusedWithNothingWritten() throws Exception {
    java.util.SplittableRandom random = new java.util.SplittableRandom(4_194_304L);
    byte[] value = new byte[LogRecord.MAX_VALUE_BYTES];
    random.nextBytes(value);
    List<Header> headers = maximumHeaders(random);
    LogRecord largest = LogRecord.of(1_700_000_000_000L, headers, value);
    assertThat(headers).hasSize(LogRecord.MAX_HEADERS);
    assertThat(largest.encodedSize()).as("envelope + headers area + value")
        .isEqualTo(16 + LogRecord.MAX_HEADER_BYTES + LogRecord.MAX_VALUE_BYTES);
    assertThat(LogRecord.MAX_HEADER_BYTES).isEqualTo(262_144);
    assertThat(LogRecord.MAX_VALUE_BYTES).isEqualTo(4 * 1024 * 1024);

    try (Objlog log = Objlog.open(store, stream);
        PartitionWriter writer = log.openWriter(0, cutEvery(1))) {
      writer.append(LogRecord.of(1_699_999_999_999L, "before"));
      AppendResult appended = writer.append(largest);
      assertThat(appended.committed().get(120, TimeUnit.SECONDS).nextLsn()).isEqualTo(2);
      writer.append(LogRecord.of(1_700_000_000_001L, "after"));
      writer.flush();

      ReadResult read = log.reader().partition(0).read(appended.lsn(), 1, Freshness.LATEST);
      assertThat(read.records()).hasSize(1);
      ReadRecord back = read.records().get(0);
      assertThat(back.lsn()).isEqualTo(1);
      assertThat(back.timestampMs()).isEqualTo(largest.timestampMs());
      assertThat(java.util.Arrays.equals(back.valueBytes(), value)).as("the 4 MiB value reads back byte-equal").isTrue();
      assertThat(back.headers()).as("all 64 headers read back byte-equal, in order").isEqualTo(headers);
      assertThat(values(log.reader().partition(0).read(0, 10, Freshness.LATEST)))
          .as("its neighbours are intact").hasSize(3).startsWith("before").endsWith("after");

      java.util.Map<String, String> before = objectsOf(log);
      List<Header> oneHeaderByteMore = new java.util.ArrayList<>(headers);
      Header last = headers.get(headers.size() - 1);
      oneHeaderByteMore.set(headers.size() - 1,
          Header.of(last.key(), java.util.Arrays.copyOf(last.value(), last.value().length + 1)));
      List<Header> sixtyFive = new java.util.ArrayList<>(headers.subList(0, 63));
      sixtyFive.add(Header.of("a", ""));
      sixtyFive.add(Header.of("b", ""));
      List<java.util.function.Supplier<LogRecord>> oversize = List.of(
          () -> LogRecord.of(2_000_000_000_000L, headers, new byte[LogRecord.MAX_VALUE_BYTES + 1]),
          () -> LogRecord.of(2_000_000_000_000L, oneHeaderByteMore, value),
          () -> LogRecord.of(2_000_000_000_000L, sixtyFive, new byte[0]),
          () -> LogRecord.of(2_000_000_000_000L,
              List.of(Header.of(new byte[Header.MAX_KEY_BYTES + 1], new byte[0])), new byte[0]),
          () -> LogRecord.of(2_000_000_000_000L,
              List.of(Header.of(new byte[1], new byte[Header.MAX_VALUE_BYTES + 1])), new byte[0]));
      List<String> limitsNamed = List.of("at most 4194304 bytes", "at most 262144 bytes", "at most 64 headers",
          "1..1024 bytes", "at most 65535 bytes");
      for (int i = 0; i < oversize.size(); i++) {
        java.util.function.Supplier<LogRecord> make = oversize.get(i);
        assertThatThrownBy(() -> writer.append(make.get()))
            .as("oversize case %d", i)
            .isInstanceOf(InvalidArgumentException.class)
            .hasMessageContaining(limitsNamed.get(i));
      }
      assertThat(writer.flush().nextLsn()).as("no record was added").isEqualTo(3);
      assertThat(objectsOf(log)).as("nothing was written to the bucket").isEqualTo(before);
    }
  }

  /**
   * 64 headers whose area (2 + Σ(4 + key + value)) is exactly 262 144 bytes: the longest key
   * (1024 B) with an empty value, a 1-byte key with the longest value (65 535 B), and 62 more with
   * random keys and values, the last one sized to land on the limit exactly.
   */
  private static List<Header> maximumHeaders(java.util.SplittableRandom random) {
    List<Header> headers = new java.util.ArrayList<>();
    byte[] longestKey = new byte[Header.MAX_KEY_BYTES];
    random.nextBytes(longestKey);
    headers.add(Header.of(longestKey, new byte[0]));
    byte[] longestValue = new byte[Header.MAX_VALUE_BYTES];
    random.nextBytes(longestValue);
    headers.add(Header.of(new byte[] {'v'}, longestValue));
    int used = 2 + headers.stream().mapToInt(Header::encodedSize).sum();
    int left = LogRecord.MAX_HEADER_BYTES - used;
    int remaining = LogRecord.MAX_HEADERS - headers.size();
    for (int i = 0; i < remaining; i++) {
      int share = i == remaining - 1 ? left : left / (remaining - i) + random.nextInt(-40, 41);
      byte[] key = ("header-" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      byte[] headerValue = new byte[share - 4 - key.length];
      random.nextBytes(headerValue);
      headers.add(Header.of(key, headerValue));
      left -= share;
    }
    assertThat(2 + headers.stream().mapToInt(Header::encodedSize).sum()).isEqualTo(LogRecord.MAX_HEADER_BYTES);
    return headers;
  }

  /** Every object of partition 0 of the log's stream (catalog, segments, staging), with its token. */
  private java.util.Map<String, String> objectsOf(Objlog log) {
    String head = log.runtime().catalog(0).headKey();
    // "streams/<stream key>/p00000000/" appears in every key of this partition, and in no other.
    String marker = head.substring(head.indexOf("/streams/") + 1, head.length() - "head.plc".length());
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    String after = "";
    while (true) {
      dev.objlog.store.ListPage page = store.list("objlog/", after, 1000);
      for (dev.objlog.store.ObjectMetadata m : page.entries()) {
        if (m.key().contains(marker)) {
          out.put(m.key(), String.valueOf(m.token()));
        }
      }
      if (page.nextAfterKey() == null || page.entries().isEmpty()) {
        break;
      }
      after = page.nextAfterKey();
    }
    assertThat(out).as("objects of the partition (%s)", marker).isNotEmpty();
    return out;
  }

  @Test
  void aLostReplyOnTheHeadWriteIsReconciledAndEveryRecordCommitsOnce() throws Exception {
    FaultInjectingObjectStore faulty = FaultInjectingObjectStore.builder(store).seed(7).build();
    try (Objlog log = Objlog.open(faulty, stream);
        PartitionWriter writer = log.openWriter(0, cutEvery(2))) {
      writer.append(LogRecord.of(1, "a"));
      writer.append(LogRecord.of(1, "b"));
      writer.flush();
      faulty.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP), log.runtime().catalog(0).headKey(),
          Fault.LOST_REPLY, 1));
      writer.append(LogRecord.of(2, "c"));
      AppendResult last = writer.append(LogRecord.of(2, "d"));
      assertThat(last.committed().get(30, TimeUnit.SECONDS).nextLsn()).isEqualTo(4);
      assertThat(faulty.injectedFaults()).extracting(FaultInjectingObjectStore.InjectedFault::fault)
          .contains(Fault.LOST_REPLY);
      assertThat(values(log.reader().partition(0).read(0, 10, Freshness.LATEST))).containsExactly("a", "b", "c", "d");
      assertThat(log.head(0).orElseThrow().reachableSegmentCount()).isEqualTo(2);
    }
  }

  @Test
  void aSupersededWriterFailsAndTheNewOwnerContinuesTheSameLog() throws Exception {
    try (Objlog log = Objlog.open(store, stream)) {
      PartitionWriter first = log.openWriter(0, cutEvery(100));
      first.append(LogRecord.of(1, "a"));
      first.flush();
      try (PartitionWriter second = log.openWriter(0, cutEvery(100))) {
        AppendResult late = first.append(LogRecord.of(2, "stale"));
        assertThatThrownBy(first::flush).isInstanceOf(StaleWriterException.class);
        assertThat(late.committed()).isCompletedExceptionally();
        assertThat(second.append(LogRecord.of(3, "b")).lsn()).isEqualTo(1);
        second.flush();
      }
      assertThat(values(log.reader().partition(0).read(0, 10, Freshness.LATEST))).containsExactly("a", "b");
      assertThat(log.head(0).orElseThrow().writerEpoch()).isEqualTo(2);
    }
  }

  @Test
  void aCommitInThisJvmWakesATailerWithoutWaitingForTheHourlyPoll() throws Exception {
    ReaderOptions hourlyPoll = ReaderOptions.builder().pollInterval(Duration.ofHours(1)).build();
    try (Objlog log = Objlog.open(store, stream);
        PartitionWriter writer = log.openWriter(0, cutEvery(100));
        LogReader reader = log.newReader(hourlyPoll);
        Watch watch = reader.watch(0)) {
      writer.append(LogRecord.of(1, "before"));
      writer.flush();
      Tailer tailer = watch.tail(0, 0, 100);
      assertThat(values(tailer.next(Duration.ofSeconds(30)))).containsExactly("before");

      CompletableFuture<ReadResult> waiting = CompletableFuture.supplyAsync(() -> {
        try {
          return tailer.next();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
      writer.append(LogRecord.of(2, "after"));
      writer.flush();
      // A bounded wait, not a timing assertion: with an hourly poll only the local commit can wake it.
      assertThat(values(waiting.get(30, TimeUnit.SECONDS))).containsExactly("after");
    }
  }

  @Test
  void resumingRefusesCheckpointsOfAnotherStreamOrBeyondTheHead() throws Exception {
    try (Objlog log = Objlog.open(store, stream);
        PartitionWriter writer = log.openWriter(0, cutEvery(100))) {
      writer.append(LogRecord.of(1, "only"));
      writer.flush();
      PartitionReader reader = log.reader().partition(0);
      assertThatThrownBy(() -> reader.resume(new CursorCheckpoint(1, "another/stream", 0, 0), 10))
          .isInstanceOf(CheckpointMismatchException.class);
      assertThatThrownBy(() -> reader.resume(new CursorCheckpoint(1, stream, 0, 5), 10))
          .isInstanceOf(CheckpointAheadException.class);
      assertThat(values(reader.resume(new CursorCheckpoint(1, stream, 0, 0), 10).next())).containsExactly("only");
    }
  }

  @Test
  void retentionRequestedByAnyProcessIsAppliedThroughTheWritersFence() throws Exception {
    try (Objlog log = Objlog.open(store, stream);
        PartitionWriter writer = log.openWriter(0, cutEvery(2))) {
      for (int i = 0; i < 10; i++) {
        writer.append(LogRecord.of(i, "r" + i));
      }
      writer.flush();
      RetentionRequest request = log.requestRetention(0, 1, 5);
      assertThat(request.beforeLsn()).isEqualTo(5);
      assertThat(log.head(0).orElseThrow().oldestLsn()).as("a request alone changes nothing").isZero();

      RetentionResult result = writer.applyRetention();
      assertThat(result.applied()).isTrue();
      // Whole segments only: [4, 5] straddles LSN 5, so the floor is its base.
      assertThat(result.oldestLsn()).isEqualTo(4);
      assertThat(writer.applyRetention().applied()).as("nothing pending the second time").isFalse();

      PartitionReader reader = log.newReader(ReaderOptions.defaults()).partition(0);
      assertThatThrownBy(() -> reader.read(1, 10, Freshness.LATEST))
          .isInstanceOfSatisfying(LsnExpiredException.class, e -> {
            assertThat(e.oldestLsn()).isEqualTo(4);
            assertThat(e.nextLsn()).isEqualTo(10);
          });
      assertThat(values(reader.read(4, 10))).containsExactly("r4", "r5", "r6", "r7", "r8", "r9");
      writer.append(LogRecord.of(10, "after retention"));
      assertThat(writer.flush().nextLsn()).isEqualTo(11);
    }
  }
}
