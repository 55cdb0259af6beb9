package dev.objlog.store.s3;

import dev.objlog.LogScenarioContract;
import dev.objlog.store.ObjectStore;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The log's key scenarios against S3Proxy with atomic conditional writes. */
class LogScenariosOnS3ProxyTests extends LogScenarioContract {
  @RegisterExtension
  static final S3ProxyBucket BUCKET = new S3ProxyBucket("scenarios");

  @Override
  protected ObjectStore store() {
    return BUCKET.store();
  }
}
