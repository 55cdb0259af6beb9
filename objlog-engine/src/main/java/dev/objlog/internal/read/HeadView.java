package dev.objlog.internal.read;

import dev.objlog.PartitionHead;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.internal.catalog.HeadSnapshot;
import org.jspecify.annotations.Nullable;

/**
 * A head as a reader saw it: the validated snapshot (null when the partition has no head object
 * yet, which reads as empty at LSN 0) and its public view.
 *
 * <p>Thread-safety: immutable.
 */
record HeadView(@Nullable HeadSnapshot snapshot, PartitionHead view) {

  static HeadView absent(String streamId, int partition) {
    return new HeadView(null, new PartitionHead(streamId, partition, 0, 0, 0, 0, 0, 0, 0, 0, null));
  }

  long nextLsn() {
    return view.nextLsn();
  }

  long oldestLsn() {
    return view.oldestLsn();
  }

  long generation() {
    return view.generation();
  }

  @Nullable Head head() {
    return snapshot == null ? null : snapshot.head();
  }

  @Nullable LeafEntry lastSegment() {
    return snapshot == null ? null : snapshot.head().lastSegment();
  }

  /** Whether {@code lsn} is at or beyond the next LSN (unsigned). */
  boolean atOrBeyondTail(long lsn) {
    return Long.compareUnsigned(lsn, nextLsn()) >= 0;
  }

  /** Same object version (same store token, or both absent). */
  boolean sameVersion(HeadView other) {
    if (snapshot == null || other.snapshot == null) {
      return snapshot == other.snapshot;
    }
    return snapshot.token().equals(other.snapshot.token());
  }
}
