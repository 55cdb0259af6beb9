package dev.objlog.spring.listener;

/**
 * The group behaviours with checkpoints saved in the background ({@code
 * objlog.listener.sync-checkpoints=false}): a member that stops or hands a partition over saves its
 * last position before the lease goes, a survivor resumes from it, a conflict found by a background
 * save hands the partition back.
 */
class InMemoryListenerGroupBackgroundCheckpointTests extends InMemoryListenerGroupTests {
  @Override
  protected String[] moreProperties() {
    return new String[] {"objlog.listener.sync-checkpoints=false"};
  }
}
