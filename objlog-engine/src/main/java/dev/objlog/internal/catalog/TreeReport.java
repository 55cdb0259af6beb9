package dev.objlog.internal.catalog;

/**
 * What {@link PartitionCatalog#verifyTree} checked.
 *
 * <p>Thread-safety: immutable.
 *
 * @param leafPages sealed leaf pages read and checked
 * @param indexPages sealed index pages read and checked
 * @param pageBytes bytes of all pages read
 * @param segments reachable segments found (equals the head's reachable count)
 * @param levels the highest sealed page level plus one (0 when every segment sits in the head)
 */
public record TreeReport(long leafPages, long indexPages, long pageBytes, long segments, int levels) {

  public long pagesVisited() {
    return leafPages + indexPages;
  }
}
