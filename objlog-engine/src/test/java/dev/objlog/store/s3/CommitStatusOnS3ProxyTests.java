package dev.objlog.store.s3;

import dev.objlog.CommitStatusContract;
import dev.objlog.store.ObjectStore;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Commit status after indeterminate publishes against S3Proxy with atomic conditional writes. */
class CommitStatusOnS3ProxyTests extends CommitStatusContract {
  @RegisterExtension
  static final S3ProxyBucket BUCKET = new S3ProxyBucket("commit-status");

  @Override
  protected ObjectStore store() {
    return BUCKET.store();
  }
}
