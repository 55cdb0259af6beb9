package dev.objlog.reliability;

import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import java.util.Map;
import java.util.TreeMap;

/** Whole-store snapshots for "nothing was written" assertions. */
final class Keys {
  private Keys() {}

  /** Every key with its version token string, in key order. */
  static Map<String, String> snapshot(ObjectStore store, String prefix) {
    Map<String, String> out = new TreeMap<>();
    String after = "";
    while (true) {
      ListPage page = store.list(prefix, after, 1000);
      for (ObjectMetadata m : page.entries()) {
        out.put(m.key(), String.valueOf(m.token()));
      }
      if (page.nextAfterKey() == null || page.entries().isEmpty()) {
        return out;
      }
      after = page.nextAfterKey();
    }
  }
}
