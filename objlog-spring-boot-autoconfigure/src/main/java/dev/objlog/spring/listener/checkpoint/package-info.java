/**
 * Where listeners keep their positions.
 *
 * <p>Owns: the SPI {@link dev.objlog.spring.listener.checkpoint.CheckpointRepository} with three
 * implementations (in-memory, JDBC, and objects in the bucket beside each partition's catalog),
 * each of which also offers the leases kept on its storage ({@code leaseStore()}: the Spring
 * module's {@code JdbcLeaseStore} and {@code InMemoryLeaseStore}, the engine's {@code
 * BucketLeaseStore}); the JDBC schema scripts (checkpoint and lease tables), their initializer and
 * the startup check that the tables exist; the {@code objlog.checkpoint.*} properties and their
 * auto-configuration (and so the default: database, else bucket, memory only on the memory store
 * or by name), including {@code hold-previous-release-leases}. Does not own: reading records or running
 * listeners (the listener container calls these SPIs), leases and how partitions are shared
 * ({@code dev.objlog.coordination}, {@code dev.objlog.spring.coordination}), the cursor checkpoint
 * format ({@link dev.objlog.read.CursorCheckpoint}, PROTOCOLS.md §5.5), or the object store.
 *
 * <p>Invariants: checkpoints are keyed by (listener id, configured stream NAME, partition) and hold
 * the exact cursor checkpoint JSON; a save succeeds only from the version it expects, so of
 * several instances saving from one version exactly one wins. The JDBC repository joins the
 * caller's Spring transaction on the same DataSource, so a transactional listener's writes and its
 * checkpoint commit or roll back together.
 *
 * <p>Error contract: a lost optimistic save is a {@link
 * dev.objlog.spring.listener.checkpoint.CheckpointConflictException} (nothing written; reload);
 * storage failures are the storage's unchecked exceptions (Spring's {@code DataAccessException},
 * objlog's {@code StoreException}); an {@code IndeterminateStoreException} means "maybe
 * written". Configuration that cannot work fails startup with an {@code
 * ObjlogConfigurationException}.
 */
@NullMarked
package dev.objlog.spring.listener.checkpoint;

import org.jspecify.annotations.NullMarked;
