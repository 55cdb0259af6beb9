package dev.objlog.coordination;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which lease: who shares partitions through it (a consumer group, or the writers of a stream),
 * what it is for (a partition, or a member slot that lets the members count each other), the
 * stream by its configured name, and the partition or slot index.
 *
 * <p>Where the stores keep it is chosen so that no consumer group name can reach another lease:
 * rows are keyed by {@link #rowGroup()} (the group; {@value #WRITERS_ROW_GROUP} for writers, which
 * no group name can be, since group names have no {@code /}) and {@link #rowPartition()} (the
 * partition; {@code 2^32 + slot} for a member slot, beyond every partition index); {@link
 * BucketLeaseStore} keeps member slots in their own documents. Every group name {@link
 * LeaseState#checkName} accepts is an ordinary group. {@link PreviousReleaseLeases} knows where
 * the previous release kept each lease.
 *
 * <p>Thread-safety: immutable.
 *
 * @param group the consumer group, or null for the writers of the stream
 * @param role a partition lease or a member slot
 * @param streamName the stream's configured name
 * @param index the partition, or for a member slot the partition whose lease location holds it
 */
public record LeaseId(@Nullable String group, Role role, String streamName, int index) {
  /** The row group of the writers' leases: not a valid group name (it has a {@code /}). */
  public static final String WRITERS_ROW_GROUP = "objlog/writers";
  /** Added to a member slot's index in {@link #rowPartition()}: partition indexes are below it. */
  public static final long MEMBER_ROW_OFFSET = 1L << 32;

  /** What a lease is for. */
  public enum Role {
    /** The right to process (consume or write) partition {@code index}. */
    PARTITION,
    /** A member slot: one per live member, so that members count each other. */
    MEMBER
  }

  public LeaseId {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(streamName, "streamName");
    if (streamName.isEmpty()) {
      throw new IllegalArgumentException("a lease's stream name must not be empty");
    }
    if (group != null) {
      LeaseState.checkName("group", group); // it becomes a folder name and a column value
    }
  }

  /** A consumer group's lease. */
  public static LeaseId ofGroup(String group, Role role, String streamName, int index) {
    return new LeaseId(Objects.requireNonNull(group, "group"), role, streamName, index);
  }

  /** A lease of the writers of {@code streamName}. */
  public static LeaseId ofWriters(Role role, String streamName, int index) {
    return new LeaseId(null, role, streamName, index);
  }

  /** Whether this is a writer lease (no consumer group). */
  public boolean writers() {
    return group == null;
  }

  /** The same lease holder and stream with another role and index. */
  public LeaseId with(Role otherRole, int otherIndex) {
    return new LeaseId(group, otherRole, streamName, otherIndex);
  }

  /** The group column of this lease's row: the group, or {@value #WRITERS_ROW_GROUP}. */
  public String rowGroup() {
    return group == null ? WRITERS_ROW_GROUP : group;
  }

  /**
   * The partition column of this lease's row: the partition index (unsigned), or {@link
   * #MEMBER_ROW_OFFSET} plus the slot index for a member slot.
   */
  public long rowPartition() {
    long i = Integer.toUnsignedLong(index);
    return role == Role.PARTITION ? i : MEMBER_ROW_OFFSET + i;
  }

  @Override
  public String toString() {
    return (group == null ? "writers" : group) + (role == Role.MEMBER ? " member slot " : " partition ")
        + Integer.toUnsignedString(index) + "@" + streamName;
  }
}
