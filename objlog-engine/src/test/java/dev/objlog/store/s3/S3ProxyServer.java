package dev.objlog.store.s3;

import java.net.URI;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import org.junit.jupiter.api.Assumptions;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Shared with other modules' tests through the engine's test jar.
 *
 * <p>An in-process S3Proxy on 127.0.0.1 with an ephemeral port and the in-memory backend (behind
 * {@link FlatKeysBlobStore}), optionally with {@link AtomicConditionsBlobStore} around it.
 */
public final class S3ProxyServer implements AutoCloseable {
  public static final String ACCESS_KEY = "objlog-test-access";
  public static final String SECRET_KEY = "objlog-test-secret-do-not-leak";

  private final S3Proxy proxy;
  private final BlobStore blobStore;
  public final URI endpoint;

  /** The endpoint, for code that wants a method. */
  public URI endpoint() {
    return endpoint;
  }

  private S3ProxyServer(S3Proxy proxy, BlobStore blobStore, URI endpoint) {
    this.proxy = proxy;
    this.blobStore = blobStore;
    this.endpoint = endpoint;
  }

  /**
   * Starts a server; skips the calling test class when that fails on a user's machine, and fails
   * it under {@code CI=true}.
   */
  public static S3ProxyServer start(boolean atomicConditions) {
    BlobStore backend = new FlatKeysBlobStore(new TransientNio2BlobStore());
    return start(atomicConditions ? new AtomicConditionsBlobStore(backend) : backend, 0);
  }

  /**
   * A server on {@code port} (0: ephemeral) over S3Proxy's filesystem backend rooted at {@code
   * dir}, so that a restarted server on the same port and folder serves the same objects. The
   * stack is {@link AtomicConditionsBlobStore} around {@code inside} around the backend: {@code
   * inside} runs under the per-key lock of conditional writes (crash tests put their pause points
   * there). Keys are stored as nested folders, not through {@link FlatKeysBlobStore}: its hex
   * names of the engine's keys (plus the backend's 37-character temp suffix) pass the 255-byte
   * file name limit of ext4 and similar file systems, and the engine never stores an object at a
   * key that is also another key's folder. {@link HideTempFiles} keeps the backend's temp files
   * out of listings.
   */
  public static S3ProxyServer startOnDisk(java.nio.file.Path dir, int port, java.util.function.UnaryOperator<BlobStore> inside) {
    BlobStore backend = new HideTempFiles(new org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore(dir.toString()));
    return start(new AtomicConditionsBlobStore(inside.apply(backend)), port);
  }

  /**
   * An in-memory server with atomic conditions that authenticates each principal (access key) the
   * {@code locator} knows and serves it the blob store the locator hands out for it; {@link
   * #ACCESS_KEY} stays the administrator with the unchecked store. {@code locator} gets that
   * store as its first argument.
   */
  public static S3ProxyServer startWithPrincipals(
      java.util.function.Function<BlobStore, org.gaul.s3proxy.BlobStoreLocator> locator) {
    BlobStore blobStore = new AtomicConditionsBlobStore(new FlatKeysBlobStore(new TransientNio2BlobStore()));
    return start(blobStore, 0, locator.apply(blobStore));
  }

  private static S3ProxyServer start(BlobStore blobStore, int port) {
    return start(blobStore, port, null);
  }

  private static S3ProxyServer start(
      BlobStore blobStore, int port, org.gaul.s3proxy.@org.jspecify.annotations.Nullable BlobStoreLocator locator) {
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(blobStore)
            .endpoint(URI.create("http://127.0.0.1:" + port))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .build();
    if (locator != null) {
      proxy.setBlobStoreLocator(locator);
    }
    try {
      proxy.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!"STARTED".equals(proxy.getState())) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("S3Proxy did not start within 30 s: " + proxy.getState());
        }
        Thread.sleep(10);
      }
    } catch (Exception e) {
      stopQuietly(proxy);
      if (dev.objlog.testing.Ci.isCi()) {
        throw new AssertionError("S3Proxy could not be started (required under CI=true)", e);
      }
      Assumptions.abort("S3Proxy could not be started, skipping: " + e);
    }
    return new S3ProxyServer(proxy, blobStore, URI.create("http://127.0.0.1:" + proxy.getPort()));
  }

  public void createBucket(String bucket) {
    blobStore.createContainer(bucket);
  }

  /** Creates the bucket unless it exists (a server restarted over the same folder). */
  public void createBucketIfAbsent(String bucket) {
    if (!blobStore.containerExists(bucket)) {
      blobStore.createContainer(bucket);
    }
  }

  /** A path-style client with the server's credentials, using the SDK's default retries. */
  public S3Client client() {
    return clientWith(ACCESS_KEY, SECRET_KEY);
  }

  public S3Client clientWith(String accessKey, String secretKey) {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
        .build();
  }

  @Override
  public void close() {
    stopQuietly(proxy);
  }

  private static void stopQuietly(S3Proxy proxy) {
    try {
      proxy.stop();
    } catch (Exception ignored) {
      // Stopping a server that never started fails; nothing is left to release then.
    }
  }

  /**
   * S3Proxy's filesystem backend writes each object to {@code <name>-<uuid>} beside it and renames
   * that into place; a server killed mid-write leaves the temp file, which later listings return as
   * an object without an ETag (real S3 never lists an unfinished upload, and objlog's S3 adapter
   * refuses a listing with an ETag-less entry). This hides such entries, as S3 would, by name (no
   * engine key ends in a dashed uuid), whether or not the backend reports an ETag for them.
   */
  static final class HideTempFiles extends org.gaul.s3proxy.blobstore.ForwardingBlobStore {
    private static final java.util.regex.Pattern TEMP =
        java.util.regex.Pattern.compile(".*-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    HideTempFiles(BlobStore delegate) {
      super(delegate);
    }

    @Override
    public software.amazon.awssdk.services.s3.model.ListObjectsV2Response list(
        software.amazon.awssdk.services.s3.model.ListObjectsV2Request request) {
      var response = super.list(request);
      var kept = response.contents().stream()
          .filter(o -> !TEMP.matcher(o.key()).matches())
          .toList();
      return kept.size() == response.contents().size() ? response : response.toBuilder().contents(kept).build();
    }
  }
}
