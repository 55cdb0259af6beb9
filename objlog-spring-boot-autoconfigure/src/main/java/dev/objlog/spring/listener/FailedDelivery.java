package dev.objlog.spring.listener;

import dev.objlog.read.ReadRecord;
import java.util.List;

/**
 * A delivery whose invocation failed, handed to {@link ListenerErrorHandler#handle}: what failed,
 * and the two things a handler may do before it decides, {@link #backOff wait} and {@link #retry()
 * invoke the listener again}. Retries happen on the partition's thread, inside the handler's call,
 * as spring-kafka's {@code DefaultErrorHandler} retries.
 *
 * <p>In batch mode, a {@link BatchListenerFailedException} points at the failing element: the
 * elements before it count as processed, {@link #records()} is that element only, {@link
 * #retry()} invokes the listener from it on, and {@link #attempts()} starts again at 1 when a
 * retry pointed further into the batch.
 *
 * <p>Thread-safety: for use on the partition's thread during the {@code handle} call only.
 */
public interface FailedDelivery {

  String listenerId();

  String streamName();

  int partition();

  /** The records the failure is about: one record, the pointed batch element, or the remaining batch. */
  List<ReadRecord> records();

  /** The last failure (a pointed batch failure's cause). */
  Exception cause();

  /** Invocations made on {@link #records()} so far (at least 1). */
  int attempts();

  /**
   * Waits before the next attempt; an orderly stop (or a lost lease) ends the wait early.
   *
   * @return false when the partition is stopping: give up, without recovering
   */
  boolean backOff(long millis) throws InterruptedException;

  /**
   * Invokes the listener again.
   *
   * @return true when it returned normally: the records are processed (and checkpointed as the
   *     mode says) and the handler is done; false when it failed again ({@link #cause()}, {@link
   *     #records()} and {@link #attempts()} tell the new failure) or the partition is stopping
   */
  boolean retry() throws InterruptedException;

  /** Whether the partition is stopping (asked to, or its lease is lost): the handler should return. */
  boolean isStopping();

  /** The failure as a recoverer gets it. */
  default ListenerFailure toFailure() {
    return new ListenerFailure(listenerId(), streamName(), partition(), records(), cause(), attempts());
  }
}
