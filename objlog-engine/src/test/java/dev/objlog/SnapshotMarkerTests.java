package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.RetentionRequest.Outcome;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.internal.retention.RetentionApplier;
import dev.objlog.internal.retention.SnapshotMarkers;
import dev.objlog.testing.LogFixture;
import dev.objlog.testing.LogFixture.StoreKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Snapshot markers (our extension) and the snapshot retention gate. */
class SnapshotMarkerTests {
  private static final int P = 0;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void markersAreCompactJsonMonotonicInTheirLsnAndIdempotent(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 4, 4)) {
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 6; i++) {
        f.append(writer, "s" + i);
      }
      assertThat(f.log.latestSnapshot(P)).isEmpty();
      assertThatThrownBy(() -> f.log.recordSnapshot(P, 6, "snap/6"))
          .as("LSN 6 is not committed").isInstanceOf(InvalidArgumentException.class);
      assertThatThrownBy(() -> f.log.recordSnapshot(P, 2, "")).isInstanceOf(InvalidArgumentException.class);

      SnapshotMarker first = f.log.recordSnapshot(P, 2, "app/snapshots/p0/2.bin");
      assertThat(new String(f.store.get(SnapshotMarkers.key(f.keys(P))).bytes(), StandardCharsets.UTF_8))
          .isEqualTo("{\"version\":1,\"stream_id\":\"tests/lifecycle\",\"partition\":0,\"through_lsn\":2,"
              + "\"object_key\":\"app/snapshots/p0/2.bin\",\"created_unix_ms\":" + f.clock.millis() + "}");
      assertThat(f.keys(P).catalogDir() + "maintenance/snapshot.json").isEqualTo(SnapshotMarkers.key(f.keys(P)));

      f.clock.advance(Duration.ofMinutes(1));
      assertThat(f.log.recordSnapshot(P, 2, "app/snapshots/p0/2.bin")).isEqualTo(first);
      SnapshotMarker later = f.log.recordSnapshot(P, 4, "app/snapshots/p0/4.bin");
      assertThat(f.log.latestSnapshot(P)).contains(later);
      assertThat(later.replayFromLsn()).isEqualTo(5);
      assertThatThrownBy(() -> f.log.recordSnapshot(P, 3, "app/snapshots/p0/3.bin"))
          .isInstanceOf(SnapshotRegressionException.class);
      // A replica starts from the newest snapshot and replays the rest.
      SnapshotMarker newest = f.log.latestSnapshot(P).orElseThrow();
      assertThat(f.read(P, newest.replayFromLsn())).containsExactly("s5");
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void withTheSnapshotGateRetentionNeverTrimsAboveTheNewestSnapshot(StoreKind kind) {
    try (LogFixture f = LogFixture.open(kind, dir, 2, 2)) {
      FencedSession writer = f.writer(P, 1);
      for (int i = 0; i < 10; i++) {
        f.append(writer, "s" + i);
      }
      RetentionGate gate = f.log.snapshotGate();
      assertThat(f.log.requestRetention(P, 1, 100, gate).outcome()).isEqualTo(Outcome.HELD_BACK);

      f.log.recordSnapshot(P, 3, "snap/3");
      RetentionRequest request = f.log.requestRetention(P, 2, 100, gate);
      assertThat(request.beforeLsn()).isEqualTo(4);
      RetentionResult result = RetentionApplier.apply(f.runtime(), writer);
      assertThat(result.oldestLsn()).isEqualTo(4);
      assertThat(f.read(P, 4)).containsExactly("s4", "s5", "s6", "s7", "s8", "s9");

      // Combined with a consumer gate the lower of the two wins.
      f.log.recordSnapshot(P, 8, "snap/8");
      RetentionRequest gated = f.log.requestRetention(P, 3, 100, gate.and(p -> 6));
      assertThat(gated.beforeLsn()).isEqualTo(6);
      RetentionApplier.apply(f.runtime(), writer);
      assertThat(f.head(P).oldestLsn()).isEqualTo(6);
      assertThat(f.log.latestSnapshot(P).orElseThrow().throughLsn()).isGreaterThanOrEqualTo(f.head(P).oldestLsn() - 1);
      assertThat(f.read(P, 6)).isEqualTo(List.of("s6", "s7", "s8", "s9"));
    }
  }
}
