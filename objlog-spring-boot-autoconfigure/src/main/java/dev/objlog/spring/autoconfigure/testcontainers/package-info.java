/**
 * Testcontainers service connections: a {@code @ServiceConnection MinIOContainer} provides the
 * {@link dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails} of the s3 store.
 *
 * <p>Owns: the connection details factory registered in {@code META-INF/spring.factories}. It is
 * loaded only by Boot's service-connection machinery (spring-boot-testcontainers) and answers only
 * when testcontainers-minio is on the classpath. With {@code objlog.store.type=s3} the details
 * have the configured bucket created in the container before the store starts (through {@link
 * dev.objlog.spring.autoconfigure.store.DevelopmentBucket}, which owns that; the store
 * configuration itself never creates buckets). Does not own: starting containers.
 *
 * <p>Error contract: a container that is not running fails when its details are read, as Boot's
 * own service connections do; a bucket that cannot be created stops startup with an {@link
 * java.lang.IllegalStateException} naming the server and the HTTP status.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.testcontainers;

import org.jspecify.annotations.NullMarked;
