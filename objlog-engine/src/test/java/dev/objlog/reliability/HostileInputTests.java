package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CorruptObjectException;
import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.ObjlogOptions;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.PartitionWriter;
import dev.objlog.RecordExceedsPendingBudgetException;
import dev.objlog.TimestampOrderException;
import dev.objlog.WriterOptions;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.read.CheckpointInvalidException;
import dev.objlog.read.CheckpointMismatchException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Hostile input at the API (issue #9): invalid stream ids, oversize records and headers, timestamp
 * regressions, malformed checkpoints and mailboxes, misconfiguration. Each is a typed error with a
 * message, and nothing is written to the store.
 */
class HostileInputTests {
  private final MemoryObjectStore store = new MemoryObjectStore();

  private static WriterOptions cutEvery(int records) {
    return WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, records).build();
  }

  @Test
  void invalidStreamIdsAreRefusedBeforeAnythingIsWritten() {
    List<String> bad = new ArrayList<>(List.of("", "/", "//", "../escape", "a/../b", "a//b", "a/./b",
        "nul\u0000byte", "new\nline", "x".repeat(600), "bad\ud800surrogate"));
    for (String id : bad) {
      Throwable t = catching(() -> {
        try (Objlog log = Objlog.open(store, id)) {
          log.openWriter(0).close();
        }
      });
      assertThat(t).as("stream id %s", printable(id)).isInstanceOf(InvalidArgumentException.class);
      assertThat(t.getMessage()).isNotBlank();
    }
    assertThat(Keys.snapshot(store, "")).isEmpty();
  }

  @Test
  void oversizeRecordsAndHeadersAreRefusedAndNothingIsWritten() {
    assertThatThrownBy(() -> LogRecord.of(1, new byte[LogRecord.MAX_VALUE_BYTES + 1]))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("at most");
    assertThatThrownBy(() -> Header.of(new byte[Header.MAX_KEY_BYTES + 1], new byte[0]))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> Header.of(new byte[0], new byte[0])).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> Header.of(new byte[1], new byte[Header.MAX_VALUE_BYTES + 1]))
        .isInstanceOf(InvalidArgumentException.class);
    List<Header> many = Collections.nCopies(LogRecord.MAX_HEADERS + 1, Header.of("k", "v"));
    assertThatThrownBy(() -> LogRecord.of(1, many, new byte[0])).isInstanceOf(InvalidArgumentException.class);
    List<Header> big = Collections.nCopies(8, Header.of(new byte[1000], new byte[60_000]));
    assertThatThrownBy(() -> LogRecord.of(1, big, new byte[0])).isInstanceOf(InvalidArgumentException.class);

    try (Objlog log = Objlog.open(store, "hostile/oversize");
        PartitionWriter writer = log.openWriter(0, WriterOptions.builder()
            .batch(Duration.ofHours(1), 64L << 20, 100).backpressure(1, 64 * 1024).build())) {
      Map<String, String> before = Keys.snapshot(store, "");
      assertThatThrownBy(() -> writer.append(LogRecord.of(1, new byte[1 << 20])))
          .isInstanceOf(RecordExceedsPendingBudgetException.class);
      assertThat(writer.flush().nextLsn()).isZero();
      assertThat(Keys.snapshot(store, "")).isEqualTo(before);
      // The writer is still usable after the refusal.
      writer.append(LogRecord.of(2, "small"));
      assertThat(writer.flush().nextLsn()).isEqualTo(1);
    }
  }

  @Test
  void aTimestampRegressionIsRefusedAndNeverReachesTheLog() {
    try (Objlog log = Objlog.open(store, "hostile/timestamps")) {
      PartitionWriter writer = log.openWriter(0, cutEvery(100));
      writer.append(LogRecord.of(1_000, "first"));
      writer.flush();
      Map<String, String> before = Keys.snapshot(store, "");
      assertThatThrownBy(() -> writer.append(LogRecord.of(999, "earlier")))
          .isInstanceOf(TimestampOrderException.class).hasMessageContaining("999");
      assertThat(Keys.snapshot(store, "")).as("nothing written for the refused record").isEqualTo(before);
      // USAGE.md: nothing is accepted and the writer stays usable (unlike the Go library, where it is terminal).
      assertThat(writer.append(LogRecord.of(1_000, "same time")).lsn()).isEqualTo(1);
      writer.flush();
      writer.close();
      assertThat(log.reader().partition(0).read(0, 10, Freshness.LATEST).records())
          .extracting(ReadRecord::valueAsString).containsExactly("first", "same time");
    }
  }

  @Test
  void malformedCheckpointsAreRefusedWithTypedErrors() {
    String stream = "hostile/checkpoints";
    try (Objlog log = Objlog.open(store, stream); PartitionWriter writer = log.openWriter(0, cutEvery(10))) {
      writer.append(LogRecord.of(1, "a"));
      writer.flush();
      for (String json : List.of("", "{", "[]", "null", "{\"version\":1}", "{\"version\":\"1\",\"stream_id\":\"x\","
          + "\"partition\":0,\"next_lsn\":0}", "{\"version\":1,\"stream_id\":\"" + stream + "\",\"partition\":-1,"
          + "\"next_lsn\":0}", "{\"version\":1,\"stream_id\":\"" + stream + "\",\"partition\":0,"
          + "\"next_lsn\":18446744073709551616}", "{\"version\":1,\"stream_id\":\"" + stream + "\",\"partition\":0,"
          + "\"next_lsn\":1.5}", "{\"version\":1,\"stream_id\":\"" + stream + "\",\"partition\":0,\"next_lsn\":0}x")) {
        assertThatThrownBy(() -> CursorCheckpoint.parse(json)).as(json).isInstanceOf(CheckpointInvalidException.class);
      }
      PartitionReader reader = log.reader().partition(0);
      assertThatThrownBy(() -> reader.resume(new CursorCheckpoint(2, stream, 0, 0), 10))
          .isInstanceOf(CheckpointInvalidException.class);
      assertThatThrownBy(() -> reader.resume(new CursorCheckpoint(1, stream, 1, 0), 10))
          .isInstanceOf(CheckpointMismatchException.class);
      assertThatThrownBy(() -> reader.resume(new CursorCheckpoint(1, stream, 0, 0), -1))
          .isInstanceOf(InvalidArgumentException.class);
    }
  }

  @Test
  void aMalformedMailboxIsATypedErrorAndTheHeadIsUntouched() {
    try (Objlog log = Objlog.open(store, "hostile/mailbox");
        PartitionWriter writer = log.openWriter(0, cutEvery(1))) {
      for (int i = 0; i < 4; i++) {
        writer.append(LogRecord.of(i, "r" + i));
      }
      writer.flush();
      String mailbox = ObjlogTestAccess.runtime(log).keys(0).retentionMailbox();
      for (String garbage : List.of("", "{", "{\"version\":2}", "{\"version\":1,\"stream_id\":\"other\","
          + "\"partition\":0,\"policy_version\":1,\"before_lsn\":2,\"created_unix_ms\":0}",
          "{\"version\":1,\"stream_id\":\"hostile/mailbox\",\"partition\":0,\"policy_version\":0,"
          + "\"before_lsn\":2,\"created_unix_ms\":0}")) {
        store.delete(List.of(mailbox));
        store.putIfAbsent(mailbox, garbage.getBytes(UTF_8));
        Map<String, String> before = Keys.snapshot(store, "");
        assertThatThrownBy(() -> log.retentionRequest(0)).as(garbage).isInstanceOf(CorruptObjectException.class);
        assertThatThrownBy(writer::applyRetention).as(garbage).isInstanceOf(CorruptObjectException.class);
        assertThat(Keys.snapshot(store, "")).isEqualTo(before);
        assertThat(log.head(0).orElseThrow().oldestLsn()).isZero();
      }
    }
  }

  @Test
  void misconfigurationIsAClearErrorAtBuildTime() {
    List<Supplier<Object>> bad = List.of(
        () -> WriterOptions.builder().batch(Duration.ofMillis(-1), 1, 1).build(),
        () -> WriterOptions.builder().batch(Duration.ZERO, 0, 1).build(),
        () -> WriterOptions.builder().batch(Duration.ZERO, 1, 0).build(),
        () -> WriterOptions.builder().backpressure(0, 1).build(),
        () -> WriterOptions.builder().backpressure(1, 0).build(),
        () -> WriterOptions.builder().writerId(new byte[3]).build(),
        () -> WriterOptions.builder().writerId(new byte[16]).build(),
        () -> ObjlogOptions.builder().catalogLimits(0, 0).build(),
        () -> ObjlogOptions.builder().prefix("../up").build(),
        () -> ObjlogOptions.builder().maxCachedHeads(0).build(),
        () -> ReclaimerOptions.builder().listPageSize(0).build(),
        () -> ReclaimerOptions.builder().deleteDelay(Duration.ofSeconds(-1)).build(),
        () -> ReclaimerOptions.builder().ownerId("not-hex").build(),
        () -> ReclaimerOptions.builder().casAttempts(0).build(),
        () -> new dev.objlog.store.RetryPolicy(0, Duration.ofMillis(1), Duration.ofMillis(1), 0.5, Duration.ofSeconds(1)),
        () -> new dev.objlog.store.RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(1), 0.5, Duration.ofSeconds(1)));
    List<String> accepted = new ArrayList<>();
    for (int i = 0; i < bad.size(); i++) {
      Supplier<Object> config = bad.get(i);
      Throwable t = catching(config::get);
      if (t == null) {
        accepted.add("#" + i);
        continue;
      }
      // Engine options throw InvalidArgumentException; the store package's builders and RetryPolicy
      // use IllegalArgumentException (recorded in docs/RELIABILITY.md).
      assertThat(t).as("#%d", i).isInstanceOfAny(InvalidArgumentException.class, IllegalArgumentException.class);
      assertThat(t.getMessage()).as("#%d", i).isNotBlank();
    }
    assertThat(accepted).as("misconfigurations accepted").isEmpty();
    try (Objlog log = Objlog.open(store, "hostile/config")) {
      assertThatThrownBy(() -> log.requestRetention(0, 0, 5)).isInstanceOf(InvalidArgumentException.class);
    }
    assertThat(Keys.snapshot(store, "")).isEmpty();
  }

  interface Action {
    void run() throws Exception;
  }

  static Throwable catching(Action action) {
    try {
      action.run();
      return null;
    } catch (Throwable t) {
      return t;
    }
  }

  static String printable(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "...(" + s.length() + ")" : s.replace("\u0000", "\\0").replace("\n", "\\n");
  }
}
