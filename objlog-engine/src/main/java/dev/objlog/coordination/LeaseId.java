package dev.objlog.coordination;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which lease: who shares partitions through it (a consumer group, or the writers of a stream),
 * what it is for (a partition, or a member slot that lets the members count each other), the
 * stream by its configured name, and the partition or slot index.
 *
 * <p>Stores keep a lease under {@link #storedGroup()}: the group name of a consumer group's
 * partition leases, {@code <group>#members} for its member slots, {@code objlog-writer} and {@code
 * objlog-writer-members} for writer leases. That is the layout of the rows and documents earlier
 * releases wrote, kept so that instances of both releases see each other's leases during a rolling
 * deploy; {@link #checkConsumerGroup} refuses the group names that would share it.
 *
 * <p>Thread-safety: immutable.
 *
 * @param group the consumer group, or null for the writers of the stream
 * @param role a partition lease or a member slot
 * @param streamName the stream's configured name
 * @param index the partition, or for a member slot the partition whose lease location holds it
 */
public record LeaseId(@Nullable String group, Role role, String streamName, int index) {
  /** Appended to a consumer group's name where its member slots are kept. */
  private static final String MEMBERS_SUFFIX = "#members";
  private static final String WRITERS = "objlog-writer";
  private static final String WRITER_MEMBERS = "objlog-writer-members";
  /** The longest stored group name the lease rows and documents take. */
  private static final int MAX_STORED_GROUP = 255;

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

  /** The group name this lease is stored under (rows' group column, documents' folder). */
  public String storedGroup() {
    if (group == null) {
      return role == Role.PARTITION ? WRITERS : WRITER_MEMBERS;
    }
    return role == Role.PARTITION ? group : group + MEMBERS_SUFFIX;
  }

  /**
   * Checks that a consumer group's leases are kept apart from every other lease.
   *
   * @throws IllegalArgumentException saying what to change
   */
  public static void checkConsumerGroup(String group) {
    if (group.length() + MEMBERS_SUFFIX.length() > MAX_STORED_GROUP) {
      throw new IllegalArgumentException("group must be at most " + (MAX_STORED_GROUP - MEMBERS_SUFFIX.length())
          + " characters");
    }
    if (group.endsWith(MEMBERS_SUFFIX)) {
      throw new IllegalArgumentException("group must not end with " + MEMBERS_SUFFIX + " (reserved for member slots)");
    }
    if (group.equals(WRITERS) || group.equals(WRITER_MEMBERS)) {
      throw new IllegalArgumentException("group " + group
          + " is reserved for ObjlogTemplate's writer leases; choose another group name");
    }
  }

  @Override
  public String toString() {
    return storedGroup() + "@" + streamName + "/" + Integer.toUnsignedString(index);
  }
}
