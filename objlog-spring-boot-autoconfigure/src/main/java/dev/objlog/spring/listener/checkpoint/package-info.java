/**
 * Where listeners keep their positions, and the leases that share partitions among the members of
 * a consumer group.
 *
 * <p>Owns: the SPIs {@link dev.objlog.spring.listener.checkpoint.CheckpointRepository} and {@link
 * dev.objlog.spring.listener.checkpoint.LeaseRepository} with three implementations of both
 * (in-memory, JDBC, and objects in the bucket beside each partition's catalog), the bucket lease
 * document (also used for {@code maintenance/writer-lease.json}), the JDBC schema scripts, their
 * initializer and the startup check that the tables exist, the {@code objlog.checkpoint.*}
 * properties and their auto-configuration (and so the default: database, else bucket, memory only
 * on the memory store or by name), and the
 * adapter that keeps the template's writer leases in a lease repository ({@link
 * dev.objlog.spring.listener.checkpoint.RepositoryWriterLeaseStore}). Does not
 * own: reading records or running listeners (the listener container calls these SPIs), the
 * cursor checkpoint format ({@link dev.objlog.read.CursorCheckpoint}, PROTOCOLS.md §5.5), or the
 * object store.
 *
 * <p>Invariants: checkpoints are keyed by (listener id, configured stream NAME, partition) and hold
 * the exact cursor checkpoint JSON; a save succeeds only from the version it expects, so of
 * several instances saving from one version exactly one wins. At most one owner holds a valid
 * lease per (group, stream name, partition); a lease's epoch grows whenever its owner changes, and
 * renewing or releasing needs the current owner and epoch. The JDBC repository joins the caller's
 * Spring transaction on the same DataSource, so a transactional listener's writes and its
 * checkpoint commit or roll back together.
 *
 * <p>Error contract: a lost optimistic save is a {@link
 * dev.objlog.spring.listener.checkpoint.CheckpointConflictException} (nothing written; reload);
 * lease refusals are {@link dev.objlog.spring.listener.checkpoint.LeaseResult.Refused} answers.
 * Storage failures are the storage's unchecked exceptions (Spring's {@code DataAccessException},
 * objlog's {@code StoreException}); an {@code IndeterminateStoreException} means "maybe
 * written". Configuration that cannot work fails startup with an {@code
 * ObjlogConfigurationException}.
 */
@NullMarked
package dev.objlog.spring.listener.checkpoint;

import org.jspecify.annotations.NullMarked;
