/**
 * The Azure Blob Storage provider of the store SPI, on the synchronous clients of {@code
 * com.azure:azure-storage-blob} (an optional dependency: add it to use this package).
 *
 * <p>Owns: mapping the SPI onto block blobs in one container ({@link
 * dev.objlog.store.azure.AzureBlobObjectStore}): ETag conditions for create-only and
 * compare-and-swap writes, conditional and ranged downloads, staged-block uploads committed
 * create-only, listing after a key on a service that has no {@code StartAfter}, parallel deletes,
 * retries, per-request timeouts and an optional request rate limit. Does not own: the container
 * (it must exist), credentials beyond passing them to the SDK, lifecycle rules that remove
 * uncommitted blocks or old objects, or anything about logs and formats.
 *
 * <p>Invariants: every write carries an ETag condition ({@code If-None-Match: *} or {@code
 * If-Match}); a staged upload becomes visible only through one conditional Put Block List; the
 * SDK's own retries are off for clients this package builds, so {@link dev.objlog.store.Retrier}
 * alone decides; version tokens are the ETag without its quotes; listings are filtered client-side
 * so that only keys strictly after {@code afterKey} and under the prefix are returned, whatever
 * the server does with {@code startFrom}.
 *
 * <p>Error contract: 409 {@code BlobAlreadyExists} and 412 {@code ConditionNotMet} are failed
 * conditions and become {@link dev.objlog.store.CreateResult.AlreadyExists} or {@link
 * dev.objlog.store.CasResult.Conflict}; 404 {@code BlobNotFound} is "not found";
 * {@code ContainerNotFound}, 400, 401 and 403 are {@link dev.objlog.store.PermanentStoreException}s
 * whose messages say what to change and never contain a key or connection string; 408, 429, 5xx,
 * connection failures and timeouts are {@link dev.objlog.store.TransientStoreException}s (flagged
 * as possibly applied when a write's request may have reached the service), retried here and
 * surfaced as {@link dev.objlog.store.IndeterminateStoreException} when a possibly-applied write
 * exhausts its retries.
 */
@NullMarked
package dev.objlog.store.azure;

import org.jspecify.annotations.NullMarked;
