/**
 * The Amazon S3 provider of the store SPI, on the AWS SDK for Java v2 (synchronous {@code
 * S3Client}); also for S3-compatible servers such as MinIO through an endpoint override with
 * path-style addressing.
 *
 * <p>Owns: mapping the SPI onto S3 requests (conditional {@code PutObject} with {@code
 * If-None-Match: *} or {@code If-Match: <etag>}, conditional and ranged {@code GetObject}, multipart
 * uploads completed with {@code If-None-Match: *}, {@code ListObjectsV2} paging, batched {@code
 * DeleteObjects}), ETag normalisation, the classification of S3 errors into the SPI's exception
 * types, retries through {@link dev.objlog.store.Retrier}, per-request timeouts and the optional
 * request rate limit. Does not own: key layout or prefixes (keys arrive complete), bucket creation
 * or lifecycle rules, and the HTTP client's tuning (pass a configured {@code S3Client} for that).
 *
 * <p>Invariants: a version token is the object's ETag in its quoted form, the same whichever
 * response reported it; every write is conditional; an upload is invisible until its completion
 * succeeds; the SDK's own retries are off on clients this package builds, so one SPI call makes at
 * most {@code RetryPolicy.maxAttempts} tries, each bounded by {@code RetryPolicy.requestTimeout}.
 *
 * <p>Error contract: throttling, 5xx answers, connection failures and timeouts are {@link
 * dev.objlog.store.TransientStoreException} (retried here first; marked may-have-taken-effect for
 * a write that might have reached S3, which turns into {@link
 * dev.objlog.store.IndeterminateStoreException} when retries run out); a missing object is {@link
 * dev.objlog.store.ObjectNotFoundException}; a missing bucket, rejected credentials, denied access,
 * a wrong region and other 4xx answers are {@link dev.objlog.store.PermanentStoreException} with a
 * message saying what to change; {@code PreconditionFailed} (412) and {@code
 * ConditionalRequestConflict} (409) become the SPI's conflict answers. No message carries
 * credentials.
 */
@NullMarked
package dev.objlog.store.s3;

import org.jspecify.annotations.NullMarked;
