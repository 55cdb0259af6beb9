package dev.objlog.internal.catalog;

import dev.objlog.format.catalog.EncodedPage;
import dev.objlog.format.catalog.Head;
import java.util.List;
import java.util.Objects;

/**
 * A head change computed in memory: the new head, its bytes, and the immutable pages it sealed,
 * which must all be stored before the head is swapped in.
 *
 * <p>Thread-safety: immutable; {@link #headBytes()} is shared, callers must not modify it.
 *
 * @param head the new head
 * @param headBytes its encoding
 * @param pages pages sealed by the change, children before parents
 */
record Mutation(Head head, byte[] headBytes, List<PageObject> pages) {
  Mutation {
    Objects.requireNonNull(head, "head");
    Objects.requireNonNull(headBytes, "headBytes");
    pages = List.copyOf(pages);
  }

  /**
   * A sealed page and the key it is stored under.
   *
   * @param key the object key (key layout v1)
   * @param page the encoded page
   */
  record PageObject(String key, EncodedPage page) {
    PageObject {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(page, "page");
    }
  }
}
