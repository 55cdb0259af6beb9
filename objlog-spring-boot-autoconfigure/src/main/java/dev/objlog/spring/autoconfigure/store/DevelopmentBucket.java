package dev.objlog.spring.autoconfigure.store;

import java.net.URI;
import java.util.Locale;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyExistsException;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Creates the bucket of {@code objlog.store.bucket} on the throw-away S3 server of a development
 * service connection (a Testcontainers {@code MinIOContainer}, a Docker Compose {@code minio}
 * service) when it is missing. Only those service connections call it, when their connection
 * details bean is initialized, which is before any objlog bean (and so the store's self-test)
 * uses the store. The store configuration itself never creates buckets: a bucket of a real
 * deployment is made by whoever owns the account.
 *
 * <p>Does nothing unless {@code objlog.store.type=s3}, a bucket is set and the AWS SDK is on the
 * classpath (without it startup fails later, saying which artifact to add).
 *
 * <p>Thread-safety: stateless.
 */
public final class DevelopmentBucket {
  private static final Log logger = LogFactory.getLog(DevelopmentBucket.class);
  private static final String S3_CLIENT = "software.amazon.awssdk.services.s3.S3Client";

  private DevelopmentBucket() {}

  /**
   * Creates the configured bucket on the server of {@code details} unless it exists.
   *
   * @throws IllegalStateException when the server refuses to say whether it exists or to create it
   */
  public static void createIfMissing(ObjlogConnectionDetails details, Environment environment) {
    String type = environment.getProperty("objlog.store.type", "");
    String bucket = details.getBucket() != null ? details.getBucket() : environment.getProperty("objlog.store.bucket");
    if (!"s3".equals(type.trim().toLowerCase(Locale.ROOT)) || bucket == null || bucket.isBlank()
        || !ClassUtils.isPresent(S3_CLIENT, DevelopmentBucket.class.getClassLoader())) {
      return;
    }
    Sdk.createIfMissing(details, bucket.trim());
  }

  /** Touches the AWS SDK only once it is known to be present. */
  private static final class Sdk {
    static void createIfMissing(ObjlogConnectionDetails details, String bucket) {
      URI endpoint = details.getEndpoint();
      try (S3Client client = client(details)) {
        try {
          client.headBucket(b -> b.bucket(bucket));
          return;
        } catch (NoSuchBucketException e) {
          // created below
        } catch (S3Exception e) {
          if (e.statusCode() != 404) {
            throw failure("cannot tell whether bucket '" + bucket + "' exists", endpoint, e);
          }
        }
        try {
          client.createBucket(b -> b.bucket(bucket));
          logger.info("Created bucket '" + bucket + "' on " + endpoint + " for objlog (development service connection)");
        } catch (BucketAlreadyOwnedByYouException | BucketAlreadyExistsException e) {
          // Another context made it meanwhile: it exists, which is all that was asked.
        } catch (S3Exception e) {
          throw failure("cannot create bucket '" + bucket + "'", endpoint, e);
        }
      }
    }

    private static S3Client client(ObjlogConnectionDetails details) {
      var builder = S3Client.builder()
          .region(Region.of(details.getRegion() != null ? details.getRegion() : "us-east-1"))
          .forcePathStyle(details.isPathStyle());
      if (details.getEndpoint() != null) {
        builder.endpointOverride(details.getEndpoint());
      }
      if (details.getAccessKey() != null && details.getSecretKey() != null) {
        builder.credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(details.getAccessKey(), details.getSecretKey())));
      }
      return builder.build();
    }

    private static IllegalStateException failure(String what, @Nullable URI endpoint, S3Exception e) {
      return new IllegalStateException(what + " on the development S3 server " + endpoint + " (HTTP "
          + e.statusCode() + "); check the service's credentials and that it is running", e);
    }
  }
}
