package dev.objlog.spring.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * This instance's writer leases of one stream as its {@link ObjlogTemplate} last saw them: kept
 * from the lease rounds, so reading it costs no store request. Besides the partitions this instance
 * holds, it lists the leases of other instances that its last rounds read: each round reads the lease
 * of every partition this instance may write and does not hold, so those are as fresh as the last
 * round. A partition in neither list had no valid lease when it was last read.
 *
 * <p>Thread-safety: immutable.
 *
 * @param owner this instance's owner id in the leases ({@link ObjlogTemplate#writerLeaseOwner()})
 * @param memberSlot this instance's membership slot, or -1 when it has none (every slot taken, or
 *     the store unreachable)
 * @param members the live instances counted in the last round, this one included
 * @param leases the partition leases held, by ascending partition
 * @param othersLeases the leases other instances held when this instance's rounds last read them,
 *     by ascending partition
 */
public record WriterLeaseStatus(String owner, int memberSlot, int members, List<HeldLease> leases,
    List<OtherLease> othersLeases) {

  public WriterLeaseStatus {
    Objects.requireNonNull(owner, "owner");
    leases = List.copyOf(leases);
    othersLeases = List.copyOf(othersLeases);
  }

  /** A status that lists no other instance's lease (the shape before {@code othersLeases}). */
  public WriterLeaseStatus(String owner, int memberSlot, int members, List<HeldLease> leases) {
    this(owner, memberSlot, members, leases, List.of());
  }

  /**
   * One partition lease this instance holds.
   *
   * @param partition the partition
   * @param owner the lease's owner id (this instance's)
   * @param epoch the lease's epoch: it grows whenever the lease passes to another owner
   * @param until when the lease runs out unless renewed, counted by this instance's clock from
   *     when its last confirmed acquire or renewal was sent
   */
  public record HeldLease(int partition, String owner, long epoch, Instant until) {
    public HeldLease {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(until, "until");
    }
  }

  /**
   * A partition lease another instance held when this instance last read it.
   *
   * @param partition the partition
   * @param owner the other instance's owner id
   * @param epoch the lease's epoch
   * @param until when the lease runs out unless renewed, as its owner wrote it (the owner's clock)
   */
  public record OtherLease(int partition, String owner, long epoch, Instant until) {
    public OtherLease {
      Objects.requireNonNull(owner, "owner");
      Objects.requireNonNull(until, "until");
    }
  }
}
