package dev.objlog.spring.autoconfigure.store;

import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * How to reach the S3-compatible server of {@code objlog.store.type=s3}. By default the {@code
 * objlog.store.s3.*} properties provide it; a Testcontainers {@code @ServiceConnection} on a
 * {@code MinIOContainer} (or an application's own bean) replaces them, and objlog then always
 * builds its own client from these details.
 *
 * <p>Thread-safety: implementations are read by one thread at startup; they should be immutable.
 */
public interface ObjlogConnectionDetails extends ConnectionDetails {

  /** The endpoint of an S3-compatible server, or null for Amazon S3. */
  @Nullable URI getEndpoint();

  /** The region to sign for, or null for the SDK's region chain (us-east-1 with an endpoint). */
  @Nullable String getRegion();

  /** Whether the bucket goes into the path rather than the host name. */
  boolean isPathStyle();

  /** The access key id of static credentials, or null for the SDK's default credentials chain. */
  @Nullable String getAccessKey();

  /** The secret key of static credentials; set exactly when {@link #getAccessKey()} is. */
  @Nullable String getSecretKey();

  /** The bucket, or null to use {@code objlog.store.bucket}. */
  default @Nullable String getBucket() {
    return null;
  }
}
