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

  @Override
  public void close() {
    server.close();
  }
}
