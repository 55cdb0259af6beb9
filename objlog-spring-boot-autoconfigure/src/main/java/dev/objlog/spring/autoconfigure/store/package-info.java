/**
 * Auto-configuration of the {@link dev.objlog.store.ObjectStore} bean and of its startup
 * self-test.
 *
 * <p>Owns: choosing the store type ({@code StoreTypeResolution}: an unset type is filesystem only
 * without a bucket or container, else the one fitting provider SDK) and building the store from
 * {@code objlog.store.*} (filesystem, memory, s3, gcs, azure), reusing an application's {@code S3Client}, {@code Storage} or {@code
 * BlobServiceClient} bean, {@link dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails}
 * for service connections, the startup steps (the bucket check, then the conditional-write
 * self-test), the failure analyzers for a store that ignores conditions or a provider SDK missing
 * from the classpath, and {@link dev.objlog.spring.autoconfigure.store.DevelopmentBucket}: creating
 * the bucket of a development service connection (Testcontainers, Docker Compose), which only those
 * call. Does not own:
 * the stores themselves (engine, {@code dev.objlog.store.*}), logs, writers or readers.
 *
 * <p>Invariants: an application's own {@code ObjectStore} bean always wins; objlog closes only
 * the clients it built (the engine stores never close a client they were given); provider SDK
 * classes are touched only inside configurations guarded by {@code @ConditionalOnClass} (and by
 * {@code DevelopmentBucket} only after it checked that the SDK is present).
 *
 * <p>Error contract: bad configuration fails startup with an {@link
 * dev.objlog.spring.autoconfigure.ObjlogConfigurationException}; a store that accepts a write
 * whose condition should fail stops startup with {@link
 * dev.objlog.store.ConditionalWritesNotHonouredException}; a missing bucket or container stops it
 * with an {@code ObjlogConfigurationException} saying what to create (other failures of that check
 * are logged); other store failures during the self-test propagate as the engine's {@code
 * StoreException}s.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.store;

import org.jspecify.annotations.NullMarked;
