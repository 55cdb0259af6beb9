/**
 * The object-store SPI: the only way objlog talks to a bucket.
 *
 * <p>Owns: the {@link dev.objlog.store.ObjectStore} contract (ranged and conditional reads,
 * create-only and compare-and-swap writes, streaming create-only uploads, ordered listing, batch
 * deletes), its result and exception types, and what every adapter shares (retry policy, the
 * conditional-write self-test). Providers live in sub-packages ({@code memory}, {@code filesystem},
 * {@code s3}, {@code gcs}, {@code azure}). Does not own: anything about logs, segments or catalogs;
 * this package knows keys and bytes only.
 *
 * <p>Invariants: conditional writes to one key are atomic; an upload is invisible until complete;
 * a version token changes whenever an object is written; listing is byte-lexicographic.
 *
 * <p>Error contract: {@link dev.objlog.store.TransientStoreException} is retryable (adapters have
 * already retried it), {@link dev.objlog.store.PermanentStoreException} and {@link
 * dev.objlog.store.ObjectNotFoundException} are terminal for the request, {@link
 * dev.objlog.store.IndeterminateStoreException} means a write may have taken effect and the caller
 * must reconcile by reading. Failed conditions are results, not errors.
 */
@NullMarked
package dev.objlog.store;

import org.jspecify.annotations.NullMarked;
