package dev.objlog.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.read.CursorCheckpoint;
import org.junit.jupiter.api.Test;

/** What every {@link CursorStore} does: load what was saved, and refuse a save over a stale version. */
abstract class CursorStoreContract {
  static final String STREAM = "tests/cursors";

  abstract CursorStore cursors();

  @Test
  void nothingIsStoredBeforeTheFirstSave() {
    assertThat(cursors().load(3)).isEmpty();
  }

  @Test
  void aSavedCursorLoadsWithTheVersionTheSaveReturned() {
    CursorStore store = cursors();
    CursorStore.Version v1 = store.save(CursorCheckpoint.of(STREAM, 3, 10), CursorStore.Version.ABSENT);
    assertThat(store.load(3)).contains(new CursorStore.Stored(CursorCheckpoint.of(STREAM, 3, 10), v1));
    CursorStore.Version v2 = store.save(CursorCheckpoint.of(STREAM, 3, 12), v1);
    assertThat(v2).isNotEqualTo(v1);
    assertThat(store.load(3).orElseThrow().checkpoint().nextLsn()).isEqualTo(12);
    assertThat(store.load(4)).as("partitions are apart").isEmpty();
  }

  @Test
  void aSaveOverAStaleVersionIsRefusedAndWritesNothing() {
    CursorStore store = cursors();
    CursorStore.Version v1 = store.save(CursorCheckpoint.of(STREAM, 0, 5), CursorStore.Version.ABSENT);
    store.save(CursorCheckpoint.of(STREAM, 0, 6), v1);
    assertThatThrownBy(() -> store.save(CursorCheckpoint.of(STREAM, 0, 7), v1))
        .isInstanceOf(CursorConflictException.class)
        .hasMessageContaining("another runner")
        .satisfies(e -> assertThat(((CursorConflictException) e).current().checkpoint().nextLsn()).isEqualTo(6));
    assertThatThrownBy(() -> store.save(CursorCheckpoint.of(STREAM, 0, 7), CursorStore.Version.ABSENT))
        .isInstanceOf(CursorConflictException.class);
    assertThat(store.load(0).orElseThrow().checkpoint().nextLsn()).isEqualTo(6);
  }

  @Test
  void unsignedPositionsRoundTrip() {
    CursorStore store = cursors();
    store.save(CursorCheckpoint.of(STREAM, -1, -2L), CursorStore.Version.ABSENT);
    assertThat(store.load(-1).orElseThrow().checkpoint()).isEqualTo(CursorCheckpoint.of(STREAM, -1, -2L));
  }
}
