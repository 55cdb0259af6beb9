package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.testing.LogFixture;
import dev.objlog.testing.LogFixture.StoreKind;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The writer's clamp (issue 22): applying retention never trims beyond the newest snapshot or a
 * retention hold, whoever wrote the request (here: an ungated request, as a Go process writes).
 */
class RetentionHoldTests {
  private static final int P = 0;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aHoldClampsEveryRequestTheWriterAppliesUntilItMovesOrCloses(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 2, 2)) {
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 10; i++) {
        f.append(writer, "s" + i);
      }
      RetentionGate.Hold hold = f.log.holdRetention(P, 3);
      f.log.requestRetention(P, 1, 100); // ungated, as another process would write it
      RetentionResult clamped = RetentionApplier.apply(f.runtime(), writer);
      assertThat(clamped.applied()).isTrue();
      assertThat(clamped.requestedLsn()).as("clamped to the hold").isEqualTo(3);
      assertThat(f.read(P, 3)).startsWith("s3");

      // A request the hold keeps at the applied floor stays pending and applies once it moves.
      f.log.requestRetention(P, 2, 100);
      RetentionResult held = RetentionApplier.apply(f.runtime(), writer);
      assertThat(held.applied()).isFalse();
      assertThat(held.oldestLsn()).isEqualTo(3);
      hold.moveTo(7);
      assertThat(RetentionApplier.apply(f.runtime(), writer).requestedLsn()).isEqualTo(7);

      hold.close();
      assertThatThrownBy(() -> hold.moveTo(9)).isInstanceOf(IllegalStateException.class);
      f.log.requestRetention(P, 3, 100);
      assertThat(RetentionApplier.apply(f.runtime(), writer).requestedLsn()).as("released: up to the next LSN")
          .isEqualTo(10);
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void theWriterNeverTrimsWhatTheNewestSnapshotDoesNotCoverAndTheLowestHoldWins(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 2, 2)) {
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 10; i++) {
        f.append(writer, "s" + i);
      }
      f.log.recordSnapshot(P, 5, "snap/5");
      f.log.requestRetention(P, 1, 100);
      assertThat(RetentionApplier.apply(f.runtime(), writer).requestedLsn()).isEqualTo(6);

      try (RetentionGate.Hold a = f.log.holdRetention(P, 8);
          RetentionGate.Hold gate = f.log.holdRetention(p -> p == P ? 7 : -1L)) {
        f.log.recordSnapshot(P, 9, "snap/9");
        f.log.requestRetention(P, 2, 100);
        assertThat(RetentionApplier.apply(f.runtime(), writer).requestedLsn()).isEqualTo(7);
      }
    }
  }

  @Test
  void clampedAndHeldAppliesAreCountedThroughThePublicWriter() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/holds",
            ObjlogOptions.builder().meterRegistry(meters).build());
        PartitionWriter writer = log.openWriter(P)) {
      writer.append(LogRecord.of(1, "a"));
      writer.flush();
      writer.append(LogRecord.of(1, "b"));
      writer.flush();
      writer.append(LogRecord.of(1, "c"));
      writer.flush();
      try (RetentionGate.Hold hold = log.holdRetention(P, 2)) {
        log.requestRetention(P, 1, 3);
        assertThat(writer.applyRetention().oldestLsn()).isEqualTo(2);
        log.requestRetention(P, 2, 3);
        assertThat(writer.applyRetention().applied()).isFalse();
      }
      assertThat(writer.applyRetention().oldestLsn()).as("the pending request applies once released").isEqualTo(3);
      assertThat(meters.get("objlog.retention.applies").tag("outcome", "clamped").counter().count()).isEqualTo(1);
      assertThat(meters.get("objlog.retention.applies").tag("outcome", "held").counter().count()).isEqualTo(1);
      assertThat(meters.get("objlog.retention.applies").tag("outcome", "applied").counter().count()).isEqualTo(1);
    }
  }
}
