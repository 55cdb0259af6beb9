package dev.objlog.sample;

import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;

/** Objects and bytes under objlog's prefix in the bucket, by listing it. */
record BucketSummary(long objects, long bytes) {

  static BucketSummary of(ObjectStore store, String prefix) {
    String root = KeyPrefixes.resolve(prefix).root() + "/";
    long objects = 0;
    long bytes = 0;
    String after = "";
    while (true) {
      ListPage page = store.list(root, after, 1000);
      for (ObjectMetadata object : page.entries()) {
        objects++;
        bytes += object.size();
      }
      if (!page.hasMore() || page.nextAfterKey() == null) {
        return new BucketSummary(objects, bytes);
      }
      after = page.nextAfterKey();
    }
  }

  BucketSummary minus(BucketSummary before) {
    return new BucketSummary(objects - before.objects, bytes - before.bytes);
  }

  @Override
  public String toString() {
    return objects + " objects, " + bytes + " bytes";
  }
}
