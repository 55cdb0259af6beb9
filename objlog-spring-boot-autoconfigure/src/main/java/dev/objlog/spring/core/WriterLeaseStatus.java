package dev.objlog.spring.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * This instance's writer leases of one stream as its {@link ObjlogTemplate} last saw them: kept
 * from the lease rounds, so reading it costs no store request. It lists only the partitions this
 * instance holds; who holds the others is not known without asking the store.
 *
 * <p>Thread-safety: immutable.
 *
 * @param owner this instance's owner id in the leases ({@link ObjlogTemplate#writerLeaseOwner()})
 * @param memberSlot this instance's membership slot, or -1 when it has none (every slot taken, or
 *     the store unreachable)
 * @param members the live instances counted in the last round, this one included
 * @param leases the partition leases held, by ascending partition
 */
public record WriterLeaseStatus(String owner, int memberSlot, int members, List<HeldLease> leases) {

  public WriterLeaseStatus {
    Objects.requireNonNull(owner, "owner");
    leases = List.copyOf(leases);
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
}
