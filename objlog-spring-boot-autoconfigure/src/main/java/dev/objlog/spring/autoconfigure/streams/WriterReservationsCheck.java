package dev.objlog.spring.autoconfigure.streams;

import dev.objlog.MemoryBudget;
import dev.objlog.WriterOptions;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.core.PartitionSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The startup step that keeps the partition writers of the configured streams from starving one
 * another of the memory budget. Each partition writer is guaranteed a reservation of the budget
 * when it opens ({@link MemoryBudget#reservationBytes(WriterOptions)}: one record of up to {@code
 * writer.backpressure.max-record-size} plus one block), and reservations never sum past the
 * budget, so a writer opened once they fill it gets what is left, possibly nothing, and refuses at
 * every send each record it can never hold. That is a configuration mistake, so it is found here
 * rather than at a send.
 *
 * <p>The check sums, over every stream under {@code objlog.streams}, the partitions this instance
 * may write ({@code writer.partitions}; with writer leases it may come to hold all of them) times
 * that stream's reservation, and when the sum exceeds the budget ({@code objlog.memory.budget}, or
 * the application's own {@link MemoryBudget} bean) stops startup with an {@link
 * ObjlogConfigurationException} naming the budget and its size, the size needed, and the {@code
 * max-record-size} that would make the writers fit. Streams auto-created from {@code
 * objlog.defaults} are not counted (how many there will be is not known at startup); a writer of
 * theirs opened short logs a warning. It runs once all singletons exist, before any writer opens
 * (the template opens a partition's writer at its first send).
 *
 * <p>Thread-safety: runs once, on the thread that starts the context.
 */
final class WriterReservationsCheck implements SmartInitializingSingleton {
  /** The name of the budget {@link ObjlogStreamsAutoConfiguration} makes from {@code objlog.memory.budget}. */
  static final String OWN_BUDGET_BEAN = "objlogMemoryBudget";

  private final ObjectProvider<MemoryBudget> budget;
  private final ObjlogProperties properties;
  private final ListableBeanFactory beans;

  WriterReservationsCheck(ObjectProvider<MemoryBudget> budget, ObjlogProperties properties, ListableBeanFactory beans) {
    this.budget = budget;
    this.properties = properties;
    this.beans = beans;
  }

  @Override
  public void afterSingletonsInstantiated() {
    MemoryBudget memory = budget.getIfUnique();
    if (memory == null) {
      return;
    }
    String[] names = beans.getBeanNamesForType(MemoryBudget.class);
    String applicationBean = names.length == 1 && !names[0].equals(OWN_BUDGET_BEAN) ? names[0] : null;
    check(properties, memory.capacityBytes(), applicationBean);
  }

  /** One configured stream's writers on this instance. */
  private record Writers(String name, int count, WriterOptions options, long reservation) {
    long total() {
      return count * reservation;
    }

    String maxRecordProperty() {
      return "objlog.streams." + name + ".writer.backpressure.max-record-size";
    }
  }

  /**
   * @param applicationBean the name of the application's own budget bean, or null when the
   *     budget is {@code objlog.memory.budget}'s
   * @throws ObjlogConfigurationException when the reservations exceed {@code capacity}
   */
  static void check(ObjlogProperties properties, long capacity, @Nullable String applicationBean) {
    List<Writers> streams = new ArrayList<>();
    long needed = 0;
    long writers = 0;
    for (Map.Entry<String, ObjlogProperties.Stream> entry : properties.getStreams().entrySet()) {
      ObjlogProperties.Writer writer = entry.getValue().getWriter();
      int count = PartitionSet.parse(writer.getPartitions(), entry.getValue().getPartitions()).size();
      WriterOptions options = writer.toWriterOptions();
      Writers w = new Writers(entry.getKey(), count, options, MemoryBudget.reservationBytes(options));
      streams.add(w);
      needed += w.total();
      writers += count;
    }
    if (needed <= capacity) {
      return;
    }
    List<String> each = new ArrayList<>();
    Writers largest = streams.get(0);
    for (Writers w : streams) {
      each.add(w.name() + ": " + w.count() + " writer" + (w.count() == 1 ? "" : "s") + " × " + w.reservation()
          + " bytes, with records of up to " + w.options().backpressure().maxRecordBytes() + " bytes and "
          + w.options().pipeline().blockBytes() + "-byte blocks");
      if (w.total() > largest.total()) {
        largest = w;
      }
    }
    String budget = applicationBean != null
        ? "the application's MemoryBudget bean '" + applicationBean + "' has " + capacity + " bytes"
        : "objlog.memory.budget is " + budgetValue(properties.getMemory().getBudget(), capacity);
    String problem = budget + ", but the partition writers of the configured streams reserve " + needed
        + " bytes of it, one record of up to max-record-size plus one block each (" + String.join("; ", each)
        + "). Reservations never sum past the budget: the writers opened once it is full would refuse every"
        + " record larger than what is left, at every send.";
    String raise = applicationBean != null
        ? "Give the MemoryBudget bean '" + applicationBean + "' at least " + needed + " bytes"
        : "Set objlog.memory.budget to at least " + megabytesUp(needed) + " (" + needed + " bytes)";
    String lower = lowerMaxRecordSize(streams, capacity, writers);
    String action = raise + (lower.isEmpty() ? "" : ", or " + lower)
        + ", or let this instance write fewer partitions (objlog.streams.<name>.writer.partitions).";
    throw new ObjlogConfigurationException(applicationBean != null ? largest.maxRecordProperty() : "objlog.memory.budget",
        problem, action);
  }

  /**
   * "set ...max-record-size to at most ..." for each stream whose writers do not fit an even share
   * of what the others leave, or empty when lowering it cannot make them fit.
   */
  private static String lowerMaxRecordSize(List<Writers> streams, long capacity, long writers) {
    // Streams already within an even share keep what they reserve; the rest share what is left.
    long share = capacity / writers;
    long left = capacity;
    long sharing = 0;
    for (Writers w : streams) {
      if (w.reservation() <= share) {
        left -= w.total();
      } else {
        sharing += w.count();
      }
    }
    long each = left / sharing;
    List<String> changes = new ArrayList<>();
    for (Writers w : streams) {
      if (w.reservation() <= share || w.reservation() <= each) {
        continue;
      }
      int fits = MemoryBudget.maxRecordBytesWithin(w.options(), each);
      if (fits == 0) {
        return ""; // not even the smallest record fits beside one block of these writers
      }
      changes.add("set " + w.maxRecordProperty() + " to at most " + kilobytesDown(fits));
    }
    return String.join(" and ", changes);
  }

  private static String budgetValue(@Nullable String value, long capacity) {
    return value == null || value.isBlank()
        ? "unset, so 25% of the heap within 32MB to 2GB: " + capacity + " bytes here"
        : value.trim() + " (" + capacity + " bytes)";
  }

  private static String megabytesUp(long bytes) {
    return ((bytes + (1L << 20) - 1) >> 20) + "MB";
  }

  /** A size Spring parses, rounded down to whole kilobytes (a smaller record fits too). */
  private static String kilobytesDown(int bytes) {
    return bytes >= 1024 ? (bytes >> 10) + "KB" : bytes + "B";
  }
}
