package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.RetentionRequest.Outcome;
import dev.objlog.format.catalog.Head;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.internal.retention.RetentionMailbox;
import dev.objlog.store.StoredObject;
import dev.objlog.testing.LogFixture;
import dev.objlog.testing.LogFixture.StoreKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Retention requests, the mailbox, the gate clamp and the writer-side apply (PROTOCOLS.md §5.7). */
class RetentionRequestTests {
  private static final int P = 3;

  @TempDir Path dir;

  private static String text(StoredObject o) {
    return new String(o.bytes(), StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aRequestWritesTheMailboxInGoFieldOrderAndChangesNothingReadable(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4)) {
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 5; i++) {
        f.append(writer, "r" + i);
      }
      Head before = f.head(P);

      RetentionRequest request = f.log.requestRetention(P, 7, 3);

      assertThat(request.outcome()).isEqualTo(Outcome.CREATED);
      assertThat(request.clamped()).isFalse();
      assertThat(request.createdUnixMs()).isEqualTo(f.clock.millis());
      assertThat(text(f.store.get(f.keys(P).retentionMailbox()))).isEqualTo(
          "{\"version\":1,\"stream_id\":\"tests/lifecycle\",\"partition\":3,\"policy_version\":7,"
              + "\"before_lsn\":3,\"created_unix_ms\":" + f.clock.millis() + "}");
      assertThat(f.head(P)).isEqualTo(before);
      assertThat(f.read(P, 0)).containsExactly("r0", "r1", "r2", "r3", "r4");
      assertThat(f.log.retentionRequest(P)).get().extracting(RetentionRequest::beforeLsn).isEqualTo(3L);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void theMailboxIsMonotonicAndIdempotent(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4)) {
      f.log.requestRetention(P, 2, 10);
      StoredObject first = f.store.get(f.keys(P).retentionMailbox());

      assertThat(f.log.requestRetention(P, 2, 10).outcome()).isEqualTo(Outcome.UNCHANGED);
      assertThat(f.store.get(f.keys(P).retentionMailbox()).token()).isEqualTo(first.token());
      assertThatThrownBy(() -> f.log.requestRetention(P, 2, 11)).isInstanceOf(RetentionRegressionException.class);
      assertThatThrownBy(() -> f.log.requestRetention(P, 1, 20)).isInstanceOf(RetentionRegressionException.class);
      assertThatThrownBy(() -> f.log.requestRetention(P, 3, 9))
          .isInstanceOf(RetentionRegressionException.class)
          .satisfies(e -> assertThat(((RetentionRegressionException) e).currentBeforeLsn()).isEqualTo(10));
      assertThatThrownBy(() -> f.log.requestRetention(P, 0, 20)).isInstanceOf(InvalidArgumentException.class);
      RetentionRequest advanced = f.log.requestRetention(P, 3, 10);
      assertThat(advanced.outcome()).isEqualTo(Outcome.ADVANCED);
      // u64 above 2^63 survives as a plain JSON number.
      long huge = Long.MIN_VALUE + 5;
      assertThat(f.log.requestRetention(P, -1L, huge).beforeLsn()).isEqualTo(huge);
      assertThat(text(f.store.get(f.keys(P).retentionMailbox())))
          .contains("\"policy_version\":18446744073709551615,\"before_lsn\":9223372036854775813,");
      assertThat(f.log.retentionRequest(P).orElseThrow().beforeLsn()).isEqualTo(huge);
    }
  }

  @Test
  void aMailboxOfAnotherStreamOrPartitionOrWithUnknownFieldsIsRejected() {
    try (LogFixture f = LogFixture.open(StoreKind.MEMORY, dir, 4, 4)) {
      String key = f.keys(P).retentionMailbox();
      String[] bad = {
          "{\"version\":1,\"stream_id\":\"other\",\"partition\":3,\"policy_version\":1,\"before_lsn\":1,\"created_unix_ms\":0}",
          "{\"version\":1,\"stream_id\":\"tests/lifecycle\",\"partition\":4,\"policy_version\":1,\"before_lsn\":1,\"created_unix_ms\":0}",
          "{\"version\":2,\"stream_id\":\"tests/lifecycle\",\"partition\":3,\"policy_version\":1,\"before_lsn\":1,\"created_unix_ms\":0}",
          "{\"version\":1,\"stream_id\":\"tests/lifecycle\",\"partition\":3,\"policy_version\":0,\"before_lsn\":1,\"created_unix_ms\":0}",
          "{\"version\":1,\"stream_id\":\"tests/lifecycle\",\"partition\":3,\"policy_version\":1,\"before_lsn\":1,\"created_unix_ms\":0,\"x\":1}",
          "{\"version\":1,\"stream_id\":\"tests/lifecycle\",\"partition\":3,\"policy_version\":1,\"before_lsn\":-1,\"created_unix_ms\":0}",
      };
      for (String json : bad) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> RetentionMailbox.decode(bytes, f.keys(P)))
            .as(json).isInstanceOf(CorruptObjectException.class);
      }
      // Without stream_id (the Go writer omits an empty one) only a stream-less log accepts it.
      f.store.putIfAbsent(key, "{\"version\":1,\"partition\":3,\"policy_version\":1,\"before_lsn\":1,\"created_unix_ms\":0}"
          .getBytes(StandardCharsets.UTF_8));
      assertThatThrownBy(() -> f.log.retentionRequest(P)).isInstanceOf(CorruptObjectException.class);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void theWriterAppliesWhatTheMailboxAsksForThroughItsFence(StoreKind kind) {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (LogFixture f = LogFixture.open(kind, dir, 2, 2)) {
      Objlog log = Objlog.open(f.store, LogFixture.STREAM, f.log.options().toBuilder().meterRegistry(meters).build());
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 8; i++) {
        f.append(writer, "a" + i, "b" + i);
      }
      var runtime = ObjlogTestAccess.runtime(log);

      RetentionResult nothing = RetentionApplier.apply(runtime, writer);
      assertThat(nothing.applied()).isFalse();
      assertThat(nothing.oldestLsn()).isZero();

      log.requestRetention(P, 1, 5);
      RetentionResult applied = RetentionApplier.apply(runtime, writer);
      assertThat(applied.applied()).isTrue();
      assertThat(applied.policyVersion()).isEqualTo(1);
      assertThat(applied.requestedLsn()).isEqualTo(5);
      assertThat(applied.oldestLsn()).as("whole-segment granularity").isEqualTo(4);
      assertThat(applied.head().oldestLsn()).isEqualTo(4);
      assertThat(f.read(P, 4)).hasSize(12).startsWith("a2");
      assertThatThrownBy(() -> f.read(P, 3)).isInstanceOf(LsnExpiredException.class)
          .satisfies(e -> assertThat(((LsnExpiredException) e).oldestLsn()).isEqualTo(4));

      assertThat(RetentionApplier.apply(runtime, writer).applied()).isFalse();

      log.requestRetention(P, 2, 1_000);
      RetentionResult all = RetentionApplier.apply(runtime, writer);
      assertThat(all.requestedLsn()).as("clamped to next").isEqualTo(16);
      assertThat(all.oldestLsn()).isEqualTo(16);
      assertThat(all.head().reachableSegmentCount()).isZero();
      assertThat(f.catalog(P).verifyTree(f.head(P)).segments()).isZero();

      assertThat(meters.counter(MetricNames.RETENTION_REQUESTS, runtime.tags(P).and(MetricNames.TAG_OUTCOME, "created")).count()).isEqualTo(1);
      assertThat(meters.counter(MetricNames.RETENTION_APPLIES, runtime.tags(P).and(MetricNames.TAG_OUTCOME, "applied")).count()).isEqualTo(2);
      assertThat(meters.counter(MetricNames.RETENTION_APPLIES, runtime.tags(P).and(MetricNames.TAG_OUTCOME, "noop")).count()).isEqualTo(2);
      log.close();
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void consumerGatedRetentionOnlyTrimsWhatEveryConsumerApplied(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 2, 2)) {
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 10; i++) {
        f.append(writer, "v" + i);
      }
      var runtime = f.runtime();
      AtomicLong slowest = new AtomicLong(0);
      AtomicLong other = new AtomicLong(7);
      RetentionGate consumers = ((RetentionGate) p -> slowest.get()).and(p -> other.get());

      // Nobody applied anything yet: the request is held back entirely.
      RetentionRequest held = f.log.requestRetention(P, 1, 8, consumers);
      assertThat(held.outcome()).isEqualTo(Outcome.HELD_BACK);
      assertThat(f.log.retentionRequest(P)).isEmpty();

      slowest.set(3);
      RetentionRequest first = f.log.requestRetention(P, 2, 8, consumers);
      assertThat(first.outcome()).isEqualTo(Outcome.CREATED);
      assertThat(first.beforeLsn()).isEqualTo(3);
      assertThat(first.requestedBeforeLsn()).isEqualTo(8);
      assertThat(first.clamped()).isTrue();
      assertThat(RetentionApplier.apply(runtime, writer).oldestLsn()).isEqualTo(3);

      // The slowest consumer has not moved: a new version writes nothing.
      assertThat(f.log.requestRetention(P, 3, 8, consumers).outcome()).isEqualTo(Outcome.HELD_BACK);
      // A request that goes backwards is still a regression, gate or not.
      assertThatThrownBy(() -> f.log.requestRetention(P, 1, 8, consumers))
          .isInstanceOf(RetentionRegressionException.class);

      slowest.set(9);
      RetentionRequest second = f.log.requestRetention(P, 3, 8, consumers);
      assertThat(second.outcome()).isEqualTo(Outcome.ADVANCED);
      assertThat(second.beforeLsn()).as("the other consumer holds it at 7").isEqualTo(7);
      RetentionResult applied = RetentionApplier.apply(runtime, writer);
      assertThat(applied.oldestLsn()).isEqualTo(7);
      assertThat(f.read(P, 7)).containsExactly("v7", "v8", "v9");
    }
  }
}
