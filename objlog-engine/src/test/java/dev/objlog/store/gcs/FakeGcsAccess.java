package dev.objlog.store.gcs;

/** Test-only access to {@link FakeGcsServer} for suites in other packages (reliability). */
public final class FakeGcsAccess implements AutoCloseable {
  private final FakeGcsServer server;

  private FakeGcsAccess(FakeGcsServer server) {
    this.server = server;
  }

  public static FakeGcsAccess start() throws Exception {
    return new FakeGcsAccess(FakeGcsServer.start());
  }

  public String host() {
    return server.host();
  }

  /** Creates a bucket through the JSON API, without credentials (the test server checks none). */
  public void createBucket(String name) throws Exception {
    try (com.google.cloud.storage.Storage admin = com.google.cloud.storage.StorageOptions.newBuilder()
        .setHost(server.host())
        .setProjectId("test")
        .setCredentials(com.google.cloud.NoCredentials.getInstance())
        .build()
        .getService()) {
      admin.create(com.google.cloud.storage.BucketInfo.of(name));
    }
  }

  /**
   * An object-creating request as the server received it (a multipart upload or the start of a
   * resumable one): its upload type, object name, query parameters and the storage class its
   * metadata asked for, if any.
   */
  public record ObjectWrite(
      String uploadType, String name, java.util.Map<String, String> query, java.util.Optional<String> storageClass) {}

  /** Every object-creating request so far, in order. */
  public java.util.List<ObjectWrite> objectWrites() {
    return server.objectWrites().stream()
        .map(w -> new ObjectWrite(w.uploadType(), w.name(), w.query(),
            w.metadata().has("storageClass")
                ? java.util.Optional.of(w.metadata().get("storageClass").asString())
                : java.util.Optional.empty()))
        .toList();
  }

  @Override
  public void close() {
    server.close();
  }
}
