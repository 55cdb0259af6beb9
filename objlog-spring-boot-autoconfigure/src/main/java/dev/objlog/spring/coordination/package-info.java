/**
 * The Spring module's lease stores and their auto-configuration: where listener groups and the
 * template's writer leases keep their leases besides the bucket.
 *
 * <p>Owns: {@link dev.objlog.spring.coordination.JdbcLeaseStore} (the {@code <prefix>lease} table,
 * schema unchanged), {@link dev.objlog.spring.coordination.InMemoryLeaseStore}, the logging of
 * {@link dev.objlog.coordination.PartitionSharing}, and the {@code LeaseStore} bean (wrapped in
 * {@link dev.objlog.coordination.PreviousReleaseLeases} when {@code
 * objlog.checkpoint.hold-previous-release-leases} is on). Does not own:
 * the lease SPI, its rules or the sharing algorithm (the engine's {@code dev.objlog.coordination}),
 * the table's creation (the checkpoint package's schema scripts), or when partitions run (the
 * listener container and the template).
 *
 * <p>Invariants: the stores apply the engine's {@link dev.objlog.coordination.LeaseState} rules,
 * so at most one owner holds a valid lease per {@link dev.objlog.coordination.LeaseId}; rows are
 * keyed by {@link dev.objlog.coordination.LeaseId#rowGroup()} and {@link
 * dev.objlog.coordination.LeaseId#rowPartition()}, so member slots and writer leases never share a
 * row with a consumer group's partition lease, whatever the group's name.
 *
 * <p>Error contract: refusals are answers; storage failures are Spring's {@code
 * DataAccessException}s.
 */
@NullMarked
package dev.objlog.spring.coordination;

import org.jspecify.annotations.NullMarked;
