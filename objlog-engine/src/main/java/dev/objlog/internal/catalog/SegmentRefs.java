package dev.objlog.internal.catalog;

import dev.objlog.InvalidArgumentException;
import dev.objlog.PartitionHead;
import dev.objlog.SegmentRef;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;

/**
 * Converts between the catalog's format values and the public value types, so that {@code
 * dev.objlog} never exposes format types. A segment's URI is its object key under key layout v1,
 * derived from base LSN, writer epoch and uuid.
 *
 * <p>Thread-safety: stateless.
 */
public final class SegmentRefs {
  private SegmentRefs() {}

  /** The public view of a leaf entry of {@code keys}' partition. */
  public static SegmentRef toSegmentRef(PartitionKeys keys, LeafEntry entry) {
    return new SegmentRef(
        keys.segment(entry.baseLsn(), entry.writerEpoch(), entry.segmentUuid().toBytes()),
        keys.streamId(),
        keys.partition(),
        entry.writerEpoch(),
        entry.segmentUuid().hex(),
        entry.writerTag().hex(),
        entry.baseLsn(),
        entry.lastLsn(),
        entry.minTimestampMs(),
        entry.maxTimestampMs(),
        entry.recordCount(),
        entry.blockCount(),
        entry.sizeBytes(),
        entry.blockIndexOffset(),
        entry.blockIndexLength(),
        entry.codec(),
        entry.hashAlgorithm(),
        entry.segmentHash(),
        entry.trailerHash());
  }

  /**
   * The leaf entry a publish stores for {@code ref}.
   *
   * @throws InvalidArgumentException if the ref belongs to another stream or partition, or its
   *     URI is not the key derived from its base LSN, epoch and uuid (FORMAT.md §2.8)
   */
  public static LeafEntry toLeafEntry(PartitionKeys keys, SegmentRef ref) {
    if (!ref.streamId().equals(keys.streamId()) || ref.partition() != keys.partition()) {
      throw new InvalidArgumentException("segment " + ref + " belongs to stream \"" + ref.streamId()
          + "\" partition " + Integer.toUnsignedString(ref.partition()) + ", not \""
          + keys.streamId() + "\" partition " + Integer.toUnsignedString(keys.partition()));
    }
    Id128 uuid = Id128.fromHex(ref.segmentUuid());
    String expected = keys.segment(ref.baseLsn(), ref.writerEpoch(), uuid.toBytes());
    if (!expected.equals(ref.uri())) {
      throw new InvalidArgumentException("segment URI " + ref.uri()
          + " is not the key its fields derive: " + expected);
    }
    return new LeafEntry(
        ref.baseLsn(),
        ref.lastLsn(),
        ref.minTimestampMs(),
        ref.maxTimestampMs(),
        ref.recordCount(),
        ref.blockCount(),
        ref.sizeBytes(),
        ref.blockIndexOffset(),
        ref.blockIndexLength(),
        ref.codec(),
        ref.hashAlgorithm(),
        ref.segmentHash(),
        ref.trailerHash(),
        ref.writerEpoch(),
        uuid,
        Id128.fromHex(ref.writerTag()));
  }

  /** The public view of a head of {@code keys}' partition. */
  public static PartitionHead toPartitionHead(PartitionKeys keys, Head head) {
    LeafEntry last = head.lastSegment();
    return new PartitionHead(
        keys.streamId(),
        head.partition(),
        head.nextLsn(),
        head.oldestLsn(),
        head.appliedRetentionLsn(),
        head.appliedRetentionVersion(),
        head.writerEpoch(),
        head.generation(),
        head.segmentCount(),
        head.reachableSegmentCount(),
        last == null ? null : toSegmentRef(keys, last));
  }
}
