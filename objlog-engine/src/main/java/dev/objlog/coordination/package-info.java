/**
 * Coordination through small documents in the bucket and leases: {@link
 * dev.objlog.coordination.CasDocument} (one document changed only by compare-and-swap), in {@code
 * json} the codec they are written with, the lease SPI {@link dev.objlog.coordination.LeaseStore}
 * with its bucket implementation {@link dev.objlog.coordination.BucketLeaseStore}, {@link
 * dev.objlog.coordination.PreviousReleaseLeases} (rolling deploys from the previous release), and {@link
 * dev.objlog.coordination.PartitionSharing}, the one algorithm by which the members of a consumer
 * group or the writers of a stream share its partitions.
 *
 * <p>Public only so that the Spring module shares it; documented as internal: it may change in any
 * release.
 *
 * <p>Owns: the read, decode, change, swap loop and how an ambiguous store reply is settled; the
 * lease rules ({@link dev.objlog.coordination.LeaseState}), where each lease lives (rows: {@link
 * dev.objlog.coordination.LeaseId#rowGroup()}, {@link dev.objlog.coordination.LeaseId#rowPartition()};
 * documents: {@link dev.objlog.coordination.BucketLeaseStore}; member slots and writer leases apart
 * from every consumer group's, so any valid group name is an ordinary group), where the previous
 * release kept them, and the lease document; the member registry (member slots), the fair share, hand-over and lease deadlines. Does
 * not own: any other document's schema, key or retry budget (each document brings its own); the
 * JDBC and in-memory lease stores (the Spring module); what runs on a partition (listener
 * consumers, template writers: {@link dev.objlog.coordination.PartitionSharing.Partitions}); when
 * ticks run (the caller's executor).
 *
 * <p>Invariants: at most one owner holds a valid lease per {@link dev.objlog.coordination.LeaseId};
 * a lease's epoch grows whenever its owner changes, and renewing or releasing needs the current
 * owner and epoch. A member acts on a partition only before its deadline (elapsed time on the
 * {@link dev.objlog.store.Ticker} from the sending of its last confirmed acquire or renewal, plus
 * ttl, minus safety margin), which ends no later than the stored expiry; a partition handed over
 * keeps its lease until its work stopped. Once a group is quiet every partition has one owner and
 * members' shares differ by at most one. Wall-clock time appears only in lease expiries, which the
 * stores write.
 *
 * <p>Error contract: lease refusals are {@link dev.objlog.coordination.LeaseResult.Refused} answers;
 * storage failures are the store's unchecked exceptions (a bucket lease document that is not one:
 * {@link dev.objlog.CorruptObjectException}; a newer version: {@link
 * dev.objlog.UnsupportedVersionException}). {@code PartitionSharing} never throws out of a scheduled
 * tick: it reports failures to its {@link dev.objlog.coordination.PartitionSharing.Reporter} and
 * keeps a lease only while it is surely valid.
 *
 * <p>Thread-safety: stated on each type.
 */
@NullMarked
package dev.objlog.coordination;

import org.jspecify.annotations.NullMarked;
