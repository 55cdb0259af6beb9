package dev.objlog.format.catalog;

import dev.objlog.CorruptObjectException;
import java.util.Objects;

/**
 * A page read back from bytes that passed every check, with the page id recomputed from those
 * bytes.
 *
 * <p>Thread-safety: immutable.
 *
 * @param page the decoded page
 * @param pageId first 16 bytes of SHA-256 over the bytes without the trailer
 */
public record DecodedPage(CatalogPage page, Id128 pageId) {
  public DecodedPage {
    Objects.requireNonNull(page, "page");
    Objects.requireNonNull(pageId, "pageId");
  }

  /**
   * The page as a leaf page.
   *
   * @throws CorruptObjectException if it is an index page (a reference led to the wrong kind)
   */
  public LeafPage leaf() {
    if (page instanceof LeafPage leaf) {
      return leaf;
    }
    throw new CorruptObjectException("expected a leaf page, found an index page at level "
        + page.header().level());
  }

  /**
   * The page as an index page.
   *
   * @throws CorruptObjectException if it is a leaf page
   */
  public IndexPage index() {
    if (page instanceof IndexPage index) {
      return index;
    }
    throw new CorruptObjectException("expected an index page, found a leaf page");
  }
}
