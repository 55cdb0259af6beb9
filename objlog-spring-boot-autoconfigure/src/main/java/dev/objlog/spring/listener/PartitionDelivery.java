package dev.objlog.spring.listener;

import dev.objlog.read.ReadRecord;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A partition's failed delivery while its error handler decides: retries go back through the
 * partition's {@link PartitionConsumer#attempt}, waits through the container's sleeper (or its
 * monitor, which a stop notifies), and a {@link BatchListenerFailedException} moves the delivery
 * on to the pointed element, checkpointing the ones before it as processed.
 *
 * <p>Thread-safety: confined to the partition's thread.
 */
final class PartitionDelivery implements FailedDelivery {

  /** What one invocation came to: processed, failed (with the failure), or not made (stopping). */
  record Attempt(boolean stopped, @Nullable Exception failure) {
    static final Attempt PROCESSED = new Attempt(false, null);
    static final Attempt STOPPED = new Attempt(true, null);
  }

  private final PartitionConsumer consumer;
  private final ObjlogListenerContainer container;
  private final boolean batch;
  private List<ReadRecord> remaining;
  private Exception last;
  private int attempts;
  private boolean succeeded;
  private boolean stopping;

  PartitionDelivery(PartitionConsumer consumer, List<ReadRecord> remaining, Exception failure) {
    this.consumer = consumer;
    this.container = consumer.container();
    this.batch = container.settings().invoker().isBatch();
    this.remaining = remaining;
    failed(failure);
  }

  private void failed(Exception e) {
    last = e;
    attempts++;
    if (e instanceof BatchListenerFailedException b && batch) {
      int index = Math.min(b.index(), remaining.size() - 1);
      if (index > 0) {
        consumer.advance(remaining.get(index - 1), index); // processed: the method got past them
        remaining = remaining.subList(index, remaining.size());
        attempts = 1;
      }
    }
  }

  private boolean pointed() {
    return batch && last instanceof BatchListenerFailedException;
  }

  @Override
  public String listenerId() {
    return container.getListenerId();
  }

  @Override
  public String streamName() {
    return container.getStreamName();
  }

  @Override
  public int partition() {
    return consumer.partition;
  }

  @Override
  public List<ReadRecord> records() {
    return pointed() ? List.of(remaining.get(0)) : remaining;
  }

  /** The records a retry invokes the method on (the batch from the pointed element on). */
  List<ReadRecord> remaining() {
    return remaining;
  }

  @Override
  public Exception cause() {
    return pointed() && last.getCause() instanceof Exception c ? c : last;
  }

  @Override
  public int attempts() {
    return attempts;
  }

  @Override
  public boolean backOff(long millis) throws InterruptedException {
    if (stopping || !consumer.live()) {
      stopping = true;
      return false;
    }
    ObjlogListenerContainer.Sleeper sleeper = container.settings().sleeper();
    if (sleeper != null) {
      sleeper.sleep(millis);
    } else {
      Object lock = container.lock(); // a stop notifies it: the wait ends at once
      long deadline = System.nanoTime() + millis * 1_000_000;
      synchronized (lock) {
        long left;
        while (consumer.live() && (left = deadline - System.nanoTime()) > 0) {
          lock.wait(Math.max(1, left / 1_000_000));
        }
      }
    }
    stopping = !consumer.live();
    return !stopping;
  }

  @Override
  public boolean retry() {
    if (succeeded) {
      return true;
    }
    if (stopping || !consumer.live()) {
      stopping = true;
      return false;
    }
    Attempt attempt = consumer.attempt(remaining);
    if (attempt.stopped()) {
      stopping = true;
      return false;
    }
    if (attempt.failure() == null) {
      succeeded = true;
      return true;
    }
    failed(attempt.failure());
    return false;
  }

  @Override
  public boolean isStopping() {
    return stopping;
  }

  /** Whether a retry processed the records. */
  boolean succeeded() {
    return succeeded;
  }

  @Override
  public String toString() {
    return "FailedDelivery[" + listenerId() + " on " + streamName() + "/" + Integer.toUnsignedString(partition())
        + " at LSN " + Long.toUnsignedString(records().get(0).lsn()) + ", attempt " + attempts + "]";
  }
}
