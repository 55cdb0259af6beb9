/**
 * Testcontainers service connections: a {@code @ServiceConnection MinIOContainer} provides the
 * {@link dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails} of the s3 store.
 *
 * <p>Owns: the connection details factory registered in {@code META-INF/spring.factories}. It is
 * loaded only by Boot's service-connection machinery (spring-boot-testcontainers) and answers only
 * when testcontainers-minio is on the classpath. Does not own: starting containers, or creating the
 * bucket (tests create it; objlog never creates buckets).
 *
 * <p>Error contract: none of its own; a container that is not running fails when its details are
 * read, as Boot's own service connections do.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.testcontainers;

import org.jspecify.annotations.NullMarked;
