package dev.objlog.format.catalog;

import java.util.Objects;

/**
 * A page as written: its bytes, its page id and the reference a parent holds for it.
 *
 * <p>Thread-safety: immutable; {@link #bytes()} returns a copy.
 */
public final class EncodedPage {
  private final byte[] bytes;
  private final Id128 pageId;
  private final CatalogPage page;

  EncodedPage(byte[] bytes, Id128 pageId, CatalogPage page) {
    this.bytes = bytes;
    this.pageId = pageId;
    this.page = Objects.requireNonNull(page, "page");
  }

  /** A copy of the encoded page. */
  public byte[] bytes() {
    return bytes.clone();
  }

  public int size() {
    return bytes.length;
  }

  /** First 16 bytes of SHA-256 over the page without its trailer. */
  public Id128 pageId() {
    return pageId;
  }

  public CatalogPage page() {
    return page;
  }

  /** The entry a parent section or index page stores for this page. */
  public IndexEntry reference() {
    return page.reference(pageId);
  }
}
