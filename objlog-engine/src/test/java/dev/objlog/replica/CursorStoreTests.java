package dev.objlog.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CursorStoreTests {

  @Nested
  class InTheBucket extends CursorStoreContract {
    final MemoryObjectStore store = new MemoryObjectStore();
    final Objlog log = Objlog.open(store, STREAM, ObjlogOptions.builder().prefix("app")
        .clock(Clock.fixed(Instant.ofEpochMilli(1_700_000_000_000L), ZoneOffset.UTC)).build());

    @AfterEach
    void close() {
      log.close();
    }

    @Override
    CursorStore cursors() {
      return CursorStore.inBucket(log, "search-index");
    }

    @Test
    void theCursorIsTheConsumerCheckpointDocumentBesideThePartitionsCatalog() {
      cursors().save(CursorCheckpoint.of(STREAM, 7, 4), CursorStore.Version.ABSENT);
      String catalogDir = PartitionKeys.of(KeyPrefixes.resolve("app"), STREAM, 7).catalogDir();
      assertThat(catalogDir).startsWith("app/catalog/");
      String key = catalogDir + "consumers/search-index/checkpoint.json";
      assertThat(new String(store.get(key).bytes(), StandardCharsets.UTF_8)).isEqualTo(
          "{\"version\":1,\"stream_id\":\"tests/cursors\",\"partition\":7,\"next_lsn\":4,"
              + "\"updated_unix_ms\":1700000000000}");
    }

    @Test
    void aReplicaIdThatCannotBeAFolderNameIsRefused() {
      for (String bad : new String[] {"", ".", "..", "a/b", "a\\b", "a\u0001"}) {
        assertThatThrownBy(() -> CursorStore.inBucket(log, bad)).as(bad)
            .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("replica id");
      }
    }
  }

  @Nested
  class InADirectory extends CursorStoreContract {
    @TempDir Path dir;

    @Override
    CursorStore cursors() {
      return CursorStore.inDirectory(dir, "search-index");
    }

    @Test
    void theCursorIsAFileUnderTheReplicasFolder() throws Exception {
      cursors().save(CursorCheckpoint.of(STREAM, 2, 9), CursorStore.Version.ABSENT);
      try (var files = Files.walk(dir)) {
        assertThat(files.filter(Files::isRegularFile).map(f -> dir.relativize(f).toString().replace('\\', '/')))
            .contains("search-index/" + PartitionKeys.partitionDir(2) + "/checkpoint.json");
      }
    }
  }
}
