/**
 * The Google Cloud Storage provider: {@link dev.objlog.store.gcs.GcsObjectStore}, on
 * google-cloud-storage's JSON (HTTP) transport.
 *
 * <p>Owns: mapping the store SPI onto GCS requests (generation preconditions for create-only and
 * compare-and-swap writes, {@code ifGenerationNotMatch} for conditional reads, ranged media reads,
 * {@code startOffset} listing, resumable create-only uploads), building and closing the client it
 * configures itself, retries under the store's {@link dev.objlog.store.RetryPolicy}, per-request
 * timeouts and the optional request rate limit. Does not own: the bucket (it must exist; lifecycle
 * rules, retention policies and soft delete are the bucket owner's), a client passed in by the
 * caller (used as configured, never closed), or anything about logs.
 *
 * <p>Invariants: the version token is the object's generation in decimal; every write carries
 * {@code ifGenerationMatch} (0 for create-only), so GCS decides races atomically; an object's body
 * is read pinned to the generation whose metadata is returned with it; an upload is invisible until
 * its final request is accepted, and a multi-chunk upload is a single resumable session.
 *
 * <p>Error contract: HTTP 412 becomes {@link dev.objlog.store.CreateResult.AlreadyExists} or {@link
 * dev.objlog.store.CasResult.Conflict} (with the current object, read after the 412); 404 is
 * {@link dev.objlog.store.ObjectNotFoundException} (or an empty/absent answer), except for a
 * missing bucket, which is permanent; 408, 429, 5xx, 403 rate-limit reasons, I/O errors and
 * timeouts are {@link dev.objlog.store.TransientStoreException} (retried here first; {@code
 * mayHaveTakenEffect} for writes that may have been applied: timeouts, dropped connections, 500,
 * 502, 504, 408), and a write that stays in doubt after the last try is {@link
 * dev.objlog.store.IndeterminateStoreException}; 400, 401, 403 and other answers are {@link
 * dev.objlog.store.PermanentStoreException} whose message says what to change.
 */
@NullMarked
package dev.objlog.store.gcs;

import org.jspecify.annotations.NullMarked;
