package dev.objlog.spring.listener;

/**
 * Handed to a listener method in {@link CheckpointMode#MANUAL} mode: {@link #acknowledge()} saves
 * the checkpoint past the record (or the whole batch) being processed, at once and on the calling
 * thread, so a JDBC checkpoint joins the method's transaction.
 *
 * <p>Thread-safety: call it on the listener's thread, during the invocation.
 */
@FunctionalInterface
public interface Acknowledgment {
  void acknowledge();
}
