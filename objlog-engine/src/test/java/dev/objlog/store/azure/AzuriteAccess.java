package dev.objlog.store.azure;

/** Test-only access to {@link AzuriteProcess} for suites in other packages (reliability). */
public final class AzuriteAccess implements AutoCloseable {
  public static final String ACCOUNT = AzuriteProcess.ACCOUNT;
  public static final String KEY = AzuriteProcess.KEY;
  private final AzuriteProcess process;

  private AzuriteAccess(AzuriteProcess process) {
    this.process = process;
  }

  /** Starts Azurite; skips (or fails under CI=true) when it is not installed. */
  public static AzuriteAccess start() throws Exception {
    return new AzuriteAccess(AzuriteProcess.start());
  }

  public static boolean installed() {
    return AzuriteProcess.installed();
  }

  public String endpoint() {
    return process.endpoint();
  }

  @Override
  public void close() throws Exception {
    process.close();
  }
}
