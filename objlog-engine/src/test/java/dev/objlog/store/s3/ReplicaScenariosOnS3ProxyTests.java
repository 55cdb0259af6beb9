package dev.objlog.store.s3;

import dev.objlog.replica.ReplicaScenarioContract;
import dev.objlog.store.ObjectStore;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Replica scenarios, snapshot bootstrap and the payload-before-marker crash on S3Proxy. */
class ReplicaScenariosOnS3ProxyTests extends ReplicaScenarioContract {
  @RegisterExtension
  static final S3ProxyBucket BUCKET = new S3ProxyBucket("replicas");

  @Override
  protected ObjectStore store() {
    return BUCKET.store();
  }
}
