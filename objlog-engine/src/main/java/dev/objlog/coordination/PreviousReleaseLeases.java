package dev.objlog.coordination;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * For a rolling deploy from the previous release: a {@link LeaseStore} that holds, besides each
 * lease, the lease the previous release kept for the same thing where that release kept it, so
 * that members of both releases in one group count each other and never both own a partition.
 *
 * <p>The previous release kept a consumer group's member slot {@code i} as the partition lease
 * {@code i} of the group {@code <group>#members}, the writers' member slots as the partition leases
 * of the group {@code objlog-writer-members}, and in rows (JDBC, memory) the writers' partition
 * leases as those of the group {@code objlog-writer}; consumer groups' partition leases, and in the
 * bucket the writers' ({@code maintenance/writer-lease.json}), did not move. Each such previous
 * lease is written here as a {@link LeaseId} of this release's layout, which lands on exactly the
 * previous release's row or document.
 *
 * <p>Rules: acquiring is granted only when both leases are granted (a refused previous lease
 * releases the new one again); renewing only when both renew; releasing releases both; a lease is
 * current when either is held. So a member of this release acts only while no member of the
 * previous release holds the lease it would use, and the other way round. Whoever calls with a
 * {@link Lease} gets the new location's lease; the previous location's lease is remembered here,
 * per location and owner.
 *
 * <p>While it is used, the consumer group names the previous release reserved stay refused
 * ({@link #checkConsumerGroup}): they are where the previous leases are.
 *
 * <p>Error contract: that of the wrapped store; after a storage failure the caller treats the
 * lease as unknown, as {@link LeaseStore} says.
 *
 * <p>Thread-safety: safe for concurrent use, as the wrapped store.
 */
public final class PreviousReleaseLeases implements LeaseStore {
  private static final String MEMBERS_SUFFIX = "#members";
  private static final String WRITERS = "objlog-writer";
  private static final String WRITER_MEMBERS = "objlog-writer-members";

  /** How the wrapped store lays out leases: which of the previous release's locations moved. */
  public enum Layout {
    /** {@link BucketLeaseStore}: only member slots moved. */
    BUCKET,
    /** Rows ({@code group_id}, {@code partition_id}): member slots and writers' partitions moved. */
    ROWS
  }

  private record Held(LeaseId previous, String owner) {}

  private final LeaseStore delegate;
  private final Layout layout;
  private final Map<Held, Lease> previousLeases = new ConcurrentHashMap<>();

  /** Leases of {@code delegate}, laid out as {@code layout}, held with the previous release's. */
  public PreviousReleaseLeases(LeaseStore delegate, Layout layout) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.layout = Objects.requireNonNull(layout, "layout");
  }

  /**
   * Where the previous release kept lease {@code id}, as a lease of this release's layout; empty
   * when it kept it where this release does.
   */
  public Optional<LeaseId> previousLocation(LeaseId id) {
    if (id.role() == LeaseId.Role.MEMBER) {
      String group = id.writers() ? WRITER_MEMBERS : id.group() + MEMBERS_SUFFIX;
      if (group.length() > LeaseState.MAX_NAME_LENGTH) {
        return Optional.empty(); // the previous release refused such groups: nobody holds it
      }
      return Optional.of(LeaseId.ofGroup(group, LeaseId.Role.PARTITION, id.streamName(), id.index()));
    }
    if (id.writers() && layout == Layout.ROWS) {
      return Optional.of(LeaseId.ofGroup(WRITERS, LeaseId.Role.PARTITION, id.streamName(), id.index()));
    }
    return Optional.empty();
  }

  /**
   * Refuses the consumer group names under which the previous release kept its member slots and
   * writer leases.
   *
   * @throws IllegalArgumentException saying what to change
   */
  public static void checkConsumerGroup(String group) {
    if (group.endsWith(MEMBERS_SUFFIX) || group.equals(WRITERS) || group.equals(WRITER_MEMBERS)) {
      throw new IllegalArgumentException("group " + group + " is where the previous release keeps its member slots or"
          + " writer leases, which objlog.checkpoint.hold-previous-release-leases holds too: choose another group"
          + " name, or turn that property off once no instance of the previous release runs");
    }
  }

  @Override
  public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    LeaseResult result = delegate.tryAcquire(id, owner, ttl);
    Optional<LeaseId> previous = previousLocation(id);
    if (!(result instanceof LeaseResult.Granted granted) || previous.isEmpty()) {
      return result;
    }
    LeaseResult before;
    try {
      before = delegate.tryAcquire(previous.get(), owner, ttl);
    } catch (RuntimeException e) {
      releaseQuietly(id, granted.lease(), e);
      throw e;
    }
    if (before instanceof LeaseResult.Granted g) {
      previousLeases.put(new Held(previous.get(), owner), g.lease());
      return result;
    }
    delegate.release(id, granted.lease()); // a member of the previous release holds it
    return before;
  }

  @Override
  public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
    Optional<LeaseId> previous = previousLocation(id);
    if (previous.isEmpty()) {
      return delegate.renew(id, held, ttl);
    }
    Held key = new Held(previous.get(), held.owner());
    LeaseResult result = delegate.renew(id, held, ttl);
    if (!(result instanceof LeaseResult.Granted granted)) {
      Lease before = previousLeases.remove(key);
      if (before != null) {
        releaseQuietly(previous.get(), before, null);
      }
      return result;
    }
    Lease before = previousLeases.get(key);
    // Without it this member never held the previous lease: it must not act on this one.
    LeaseResult renewedBefore = before == null ? new LeaseResult.Refused(null) : delegate.renew(previous.get(), before, ttl);
    if (renewedBefore instanceof LeaseResult.Granted g) {
      previousLeases.put(key, g.lease());
      return result;
    }
    previousLeases.remove(key);
    delegate.release(id, granted.lease());
    return renewedBefore;
  }

  @Override
  public boolean release(LeaseId id, Lease held) {
    boolean released = delegate.release(id, held);
    Optional<LeaseId> previous = previousLocation(id);
    if (previous.isPresent()) {
      Lease before = previousLeases.remove(new Held(previous.get(), held.owner()));
      if (before != null) {
        delegate.release(previous.get(), before);
      }
    }
    return released;
  }

  @Override
  public Optional<Lease> current(LeaseId id) {
    Optional<Lease> current = delegate.current(id);
    Optional<LeaseId> previous = previousLocation(id);
    if (current.isPresent() || previous.isEmpty()) {
      return current;
    }
    return delegate.current(previous.get());
  }

  private void releaseQuietly(LeaseId id, Lease lease, @Nullable RuntimeException failure) {
    try {
      delegate.release(id, lease);
    } catch (RuntimeException e) {
      if (failure != null) {
        failure.addSuppressed(e);
      } // otherwise it expires on its own
    }
  }

  @Override
  public String toString() {
    return "PreviousReleaseLeases[" + delegate + ", " + layout + "]";
  }
}
