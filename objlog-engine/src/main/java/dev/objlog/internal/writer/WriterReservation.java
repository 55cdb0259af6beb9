package dev.objlog.internal.writer;

import dev.objlog.MemoryBudget;
import dev.objlog.WriterOptions;
import dev.objlog.internal.memory.MemoryPool;

/**
 * A partition writer's reservation of its log's memory budget ({@link
 * MemoryBudget#reservationBytes(WriterOptions)}): opening it, and saying what to change when the
 * budget could not grant it whole. That happens when the reservations of the writers opened before
 * fill the budget (or the budget is smaller than one reservation); such a writer refuses every
 * record it can never hold, and nothing else would tell why until the first such append. So it
 * logs one WARNING when it opens, and each refused append says the same in its {@code
 * RecordExceedsPendingBudgetException}: one text, built here.
 *
 * <p>Thread-safety: stateless.
 */
final class WriterReservation {
  private static final System.Logger LOGGER = System.getLogger(WriterReservation.class.getName());

  private WriterReservation() {}

  /** Opens the writer's account on {@code pool}; logs one WARNING when the reservation was short. */
  static MemoryPool.Account open(MemoryPool pool, String streamId, int partition, WriterOptions options) {
    MemoryPool.Account account = pool.open(MemoryBudget.reservationBytes(options));
    if (account.reservation() < account.wanted()) {
      LOGGER.log(System.Logger.Level.WARNING, () -> "the partition writer of stream \"" + streamId
          + "\", partition " + Integer.toUnsignedString(partition) + ", " + shortfall(account, options) + ".");
    }
    return account;
  }

  /**
   * What the writer of {@code account} was granted and can hold, and what to change: "was granted
   * ... or open fewer writers on it", without a final stop, to follow a subject.
   */
  static String shortfall(MemoryPool.Account account, WriterOptions options) {
    long capacity = account.pool().capacity();
    long wanted = account.wanted();
    long ceiling = account.ceiling();
    long others = capacity - ceiling;
    int blockBytes = options.pipeline().blockBytes();
    StringBuilder text = new StringBuilder("was granted ").append(account.reservation()).append(" of the ")
        .append(wanted).append(" bytes it reserves (its largest record, maxRecordBytes ")
        .append(options.backpressure().maxRecordBytes()).append(", as a segment plus one ").append(blockBytes)
        .append("-byte block) from a memory budget of ").append(capacity).append(" bytes");
    if (others > 0) {
      text.append(", ").append(others).append(" bytes of which other writers' reservations hold");
    }
    text.append("; it can never hold more than ").append(ceiling)
        .append(" bytes, so a record needing more is refused with RecordExceedsPendingBudgetException."
            + " Raise the budget to at least ")
        .append(others + wanted).append(" bytes (ObjlogOptions.memoryBudget; Spring: objlog.memory.budget)");
    int fits = MemoryBudget.maxRecordBytesWithin(options, ceiling);
    if (fits > 0) {
      text.append(", or lower maxRecordBytes (WriterOptions.BackpressurePolicy; Spring:"
          + " objlog.streams.<name>.writer.backpressure.max-record-size) to at most ").append(fits).append(" bytes");
    } else {
      text.append(" (with ").append(blockBytes).append("-byte blocks no maxRecordBytes fits what is left)");
    }
    if (others > 0) {
      text.append(", or open fewer writers on it");
    }
    return text.toString();
  }
}
