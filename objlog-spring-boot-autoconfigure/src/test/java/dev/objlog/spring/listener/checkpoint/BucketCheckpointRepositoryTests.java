package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CorruptObjectException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bucket repository on the memory and filesystem stores, and the exact objects it writes. */
class BucketCheckpointRepositoryTests {

  static final CatalogLocator LOCATOR = CatalogLocator.of("objlog", CheckpointRepositoryContractTests::streamId);

  static PartitionKeys keys(String streamName, int partition) {
    return PartitionKeys.of(KeyPrefixes.resolve("objlog"), "demo/" + streamName, partition);
  }

  @Nested
  class OnMemoryStore extends CheckpointRepositoryContractTests {
    ObjectStore store;

    @Override
    protected CheckpointRepository create(Clock clock) {
      store = new MemoryObjectStore();
      return new BucketCheckpointRepository(store, LOCATOR, clock);
    }

    @Test
    void theCheckpointIsTheCursorJsonPlusUpdateTimeBesideThePartitionsCatalog() {
      BucketCheckpointRepository repository = new BucketCheckpointRepository(store, LOCATOR, clock);
      repository.save(CheckpointKey.of("billing", "orders", 7), at("orders", 7, 4), CheckpointVersion.ABSENT);

      String key = keys("orders", 7).catalogDir() + "consumers/billing/checkpoint.json";
      assertThat(key).startsWith("objlog/catalog/").endsWith("/p00000007/consumers/billing/checkpoint.json");
      assertThat(new String(store.get(key).bytes(), StandardCharsets.UTF_8)).isEqualTo(
          "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"updated_unix_ms\":"
              + clock.millis() + "}");
      assertThat(repository.load("billing", "orders", 7).orElseThrow().version().value())
          .isEqualTo(store.get(key).token().value());
    }

    @Test
    void theGroupLeaseAndWriterLeaseHaveTheDocumentedShape() {
      BucketCheckpointRepository repository = new BucketCheckpointRepository(store, LOCATOR, clock);
      repository.groupLease("group", "orders", 7).tryAcquire("instance-1", Duration.ofSeconds(30));
      dev.objlog.coordination.Lease writer =
          repository.writerLease("orders", 7).tryAcquire("writer-9", Duration.ofSeconds(5)).grantedLease().orElseThrow();

      String dir = keys("orders", 7).catalogDir();
      assertThat(new String(store.get(dir + "consumers/group/lease.json").bytes(), StandardCharsets.UTF_8)).isEqualTo(
          "{\"version\":1,\"owner\":\"instance-1\",\"lease_until_unix_ms\":" + (clock.millis() + 30_000) + ",\"epoch\":1}");
      assertThat(new String(store.get(dir + "maintenance/writer-lease.json").bytes(), StandardCharsets.UTF_8)).isEqualTo(
          "{\"version\":1,\"owner\":\"writer-9\",\"lease_until_unix_ms\":" + (clock.millis() + 5_000) + ",\"epoch\":1}");

      assertThat(repository.writerLease("orders", 7).release(writer)).isTrue();
      assertThat(new String(store.get(dir + "maintenance/writer-lease.json").bytes(), StandardCharsets.UTF_8))
          .isEqualTo("{\"version\":1,\"owner\":\"\",\"lease_until_unix_ms\":0,\"epoch\":1}");
      assertThat(repository.writerLease("orders", 7).current()).isEmpty();
    }

    /**
     * Found by the group fault simulation: the S3, GCS and Azure adapters retry a swap whose reply
     * was lost, and the retry answers "conflict" with the object the first try wrote.
     */
    @Test
    void aSaveWhoseSwapTheAdapterRetriedAfterALostReplyIsNotAConflict() {
      var faulty = dev.objlog.store.fault.FaultInjectingObjectStore.builder(store).build();
      var retrier = new dev.objlog.store.Retrier(new dev.objlog.store.RetryPolicy(3, Duration.ZERO, Duration.ZERO, 0,
          Duration.ofSeconds(5)));
      ObjectStore retrying = new RetryingStore(faulty, retrier);
      BucketCheckpointRepository repository = new BucketCheckpointRepository(retrying, LOCATOR, clock);
      CheckpointKey key = CheckpointKey.of("billing", "orders", 3);
      CheckpointVersion first = repository.save(key, at("orders", 3, 4), CheckpointVersion.ABSENT);
      faulty.addRule(dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule.next(
          dev.objlog.store.fault.FaultInjectingObjectStore.Operation.COMPARE_AND_SWAP,
          dev.objlog.store.fault.FaultInjectingObjectStore.Fault.LOST_REPLY, 1));

      CheckpointVersion second = repository.save(key, at("orders", 3, 9), first);

      assertThat(faulty.injectedFaults()).as("the first try's reply was lost").hasSize(1);
      StoredCheckpoint stored = repository.load(key).orElseThrow();
      assertThat(stored.checkpoint().nextLsn()).isEqualTo(9);
      assertThat(second).as("the version of the object the lost try wrote").isEqualTo(stored.version());
    }

    @Test
    void aCheckpointOfAnotherStreamIdIsRejected() {
      BucketCheckpointRepository repository = new BucketCheckpointRepository(store, LOCATOR, clock);
      assertThatThrownBy(() -> repository.save(
              CheckpointKey.of("billing", "orders", 0), at("payments", 0, 1), CheckpointVersion.ABSENT))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("demo/payments");
    }

    @Test
    void foreignObjectsAreReportedAsCorrupt() {
      BucketCheckpointRepository repository = new BucketCheckpointRepository(store, LOCATOR, clock);
      String dir = keys("orders", 0).catalogDir();
      store.putIfAbsent(dir + "consumers/billing/checkpoint.json", "{\"nope\":1}".getBytes(StandardCharsets.UTF_8));
      store.putIfAbsent(dir + "consumers/g1/lease.json", "[]".getBytes(StandardCharsets.UTF_8));
      store.putIfAbsent(dir + "consumers/g2/lease.json",
          "{\"version\":2,\"owner\":\"x\",\"lease_until_unix_ms\":1,\"epoch\":1}".getBytes(StandardCharsets.UTF_8));

      assertThatThrownBy(() -> repository.load("billing", "orders", 0)).isInstanceOf(CorruptObjectException.class);
      assertThatThrownBy(() -> repository.groupLease("g1", "orders", 0).current()).isInstanceOf(CorruptObjectException.class);
      assertThatThrownBy(() -> repository.groupLease("g2", "orders", 0).tryAcquire("a", TTL))
          .isInstanceOf(UnsupportedVersionException.class);
    }
  }

  @Nested
  class OnFilesystemStore extends CheckpointRepositoryContractTests {
    @TempDir Path root;
    FilesystemObjectStore store;

    @Override
    protected CheckpointRepository create(Clock clock) {
      store = FilesystemObjectStore.open(root);
      return new BucketCheckpointRepository(store, LOCATOR, clock);
    }

    @Override
    protected void close() {
      store.close();
    }
  }
}
