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

  @Override
  public void close() {
    server.close();
  }
}
