package dev.objlog.spring.core;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * Where {@link ObjlogTemplate} instances that share a stream keep their writer leases
 * ({@code objlog.streams.<name>.writer.lease.*}). Two kinds of lease, each at most one valid per
 * (kind, stream name, index): {@link Kind#PARTITION} leases say which instance writes a partition;
 * {@link Kind#MEMBER} leases, one per live instance, let every instance count the others and take
 * its share. The auto-configuration adapts the listeners' {@code LeaseRepository} (JDBC, in-memory
 * or bucket) to this interface.
 *
 * <p>A lease is the caller's until its ttl runs out unless renewed; it is identified by its owner
 * and its epoch, which grows whenever the lease passes to another owner. Leases only decide who
 * tries to write: the catalog fence still rejects a writer whose lease was taken over.
 *
 * <p>Error contract: refusals are answers (empty, {@code false}); storage failures surface as
 * unchecked exceptions, after which the caller treats the lease as unknown until its ttl ends.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use, within and across processes.
 */
public interface WriterLeaseStore {

  /** What a lease is for. */
  enum Kind {
    /** The right to write partition {@code index}. */
    PARTITION,
    /** Membership slot {@code index} of the instances writing the stream. */
    MEMBER
  }

  /**
   * Takes the lease for {@code owner} for {@code ttl}, or extends it when {@code owner} holds it.
   *
   * @return the lease's epoch when granted; empty when another owner holds a valid lease
   */
  OptionalLong tryAcquire(Kind kind, String streamName, int index, String owner, Duration ttl);

  /**
   * Extends the lease {@code owner} holds with {@code epoch} to {@code ttl} from now.
   *
   * @return false when it is no longer the caller's (taken over or released)
   */
  boolean renew(Kind kind, String streamName, int index, String owner, long epoch, Duration ttl);

  /** Gives the lease up if it is still the caller's, so that others can take it at once. */
  void release(Kind kind, String streamName, int index, String owner, long epoch);

  /** Whether anyone holds a valid lease now. */
  boolean isHeld(Kind kind, String streamName, int index);
}
