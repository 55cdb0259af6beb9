package dev.objlog.lifecycle;

import dev.objlog.Objlog;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where the registered consumers of a log are: for each partition, every consumer's applied floor
 * (the next LSN it has not applied yet). {@link UntilConsumedRetention} advances retention to the
 * lowest of them. Consumers publish their floor where an implementation reads it: replicas of the
 * same process in a {@link dev.objlog.replica.ConsumerRegistry}, replicas and listener groups with
 * bucket checkpoints in the bucket ({@link #inBucket}), Spring listener groups with JDBC
 * checkpoints through the starter's checkpoint repository.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface ConsumerFloors {

  /**
   * Every registered consumer's floor of {@code partition}, in a stable order; empty when no
   * consumer is registered.
   *
   * @throws dev.objlog.store.StoreException if the floors could not be read
   */
  List<ConsumerFloor> floors(int partition);

  /** The floors of both sources. */
  default ConsumerFloors and(ConsumerFloors other) {
    Objects.requireNonNull(other, "other");
    return partition -> {
      List<ConsumerFloor> all = new ArrayList<>(floors(partition));
      all.addAll(other.floors(partition));
      return List.copyOf(all);
    };
  }

  /**
   * The consumers that keep their position in {@code log}'s bucket: every {@code
   * <catalogDir>consumers/<id>/checkpoint.json} of the partition, as {@link
   * dev.objlog.replica.CursorStore#inBucket} and the Spring starter's bucket checkpoints write
   * them. One LIST and one GET per consumer each call.
   */
  static ConsumerFloors inBucket(Objlog log) {
    return new BucketConsumerFloors(Objects.requireNonNull(log, "log"));
  }

  /**
   * One consumer's applied floor of one partition.
   *
   * <p>Thread-safety: immutable.
   *
   * @param consumer the consumer's id (replica id or listener group)
   * @param partition the partition
   * @param beforeLsn the next LSN the consumer has not applied (u64): records below it are done
   */
  record ConsumerFloor(String consumer, int partition, long beforeLsn) {
    public ConsumerFloor {
      Objects.requireNonNull(consumer, "consumer");
    }
  }
}
