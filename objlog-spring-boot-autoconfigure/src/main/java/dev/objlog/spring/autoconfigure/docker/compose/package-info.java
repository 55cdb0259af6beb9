/**
 * Docker Compose service connections: a {@code minio} service of the application's {@code
 * compose.yaml} provides the {@link dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails}
 * of the s3 store, and gets the configured bucket created.
 *
 * <p>Owns: the connection details factory registered in {@code META-INF/spring.factories}. It is
 * loaded only by Boot's Docker Compose support (spring-boot-docker-compose, a development-time
 * dependency). Does not own: starting the services (Boot), or the bucket creation itself
 * ({@link dev.objlog.spring.autoconfigure.store.DevelopmentBucket}).
 *
 * <p>Error contract: a bucket that cannot be created stops startup with an {@link
 * java.lang.IllegalStateException} naming the server and the HTTP status.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.docker.compose;

import org.jspecify.annotations.NullMarked;
