package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.replica.CursorConflictException;
import dev.objlog.replica.CursorStore;
import dev.objlog.replica.Replica;
import dev.objlog.store.memory.MemoryObjectStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A checkpoint repository as the engine's cursor store, and the bucket document both of them keep. */
class CheckpointCursorStoreTests {

  @Test
  void aReplicaKeepsItsCursorsInACheckpointRepository() throws Exception {
    InMemoryCheckpointRepository repository = new InMemoryCheckpointRepository();
    CursorStore cursors = new CheckpointCursorStore(repository, "search-index", "orders");
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "demo/orders");
        PartitionWriter writer = log.openWriter(1)) {
      writer.append(LogRecord.of(1, "a"));
      writer.append(LogRecord.of(2, "b"));
      writer.flush();
      CountDownLatch applied = new CountDownLatch(2);
      try (Replica replica = Replica.builder(log, cursors, batch -> batch.records().forEach(r -> applied.countDown()))
          .partitions(1).build()) {
        replica.start();
        assertThat(applied.await(30, TimeUnit.SECONDS)).isTrue();
      }
    }
    assertThat(repository.load(CheckpointKey.of("search-index", "orders", 1)).orElseThrow().checkpoint())
        .isEqualTo(CursorCheckpoint.of("demo/orders", 1, 2));
  }

  @Test
  void aRepositoryConflictIsACursorConflict() {
    CursorStore cursors = new CheckpointCursorStore(new InMemoryCheckpointRepository(), "r", "orders");
    CursorStore.Version v1 = cursors.save(CursorCheckpoint.of("demo/orders", 0, 1), CursorStore.Version.ABSENT);
    cursors.save(CursorCheckpoint.of("demo/orders", 0, 2), v1);
    assertThatThrownBy(() -> cursors.save(CursorCheckpoint.of("demo/orders", 0, 3), v1))
        .isInstanceOf(CursorConflictException.class)
        .hasCauseInstanceOf(CheckpointConflictException.class)
        .satisfies(e -> assertThat(((CursorConflictException) e).current().checkpoint().nextLsn()).isEqualTo(2));
    assertThatThrownBy(() -> new CheckpointCursorStore(new InMemoryCheckpointRepository(), "a/b", "orders"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theEnginesBucketCursorIsTheDocumentTheBucketRepositoryReads() {
    MemoryObjectStore store = new MemoryObjectStore();
    try (Objlog log = Objlog.open(store, "demo/orders")) {
      CursorStore.inBucket(log, "search-index").save(CursorCheckpoint.of("demo/orders", 3, 42), CursorStore.Version.ABSENT);
      BucketCheckpointRepository repository = new BucketCheckpointRepository(store,
          CatalogLocator.of("", name -> "demo/" + name));
      assertThat(repository.load(CheckpointKey.of("search-index", "orders", 3)).orElseThrow().checkpoint())
          .isEqualTo(CursorCheckpoint.of("demo/orders", 3, 42));
    }
  }
}
