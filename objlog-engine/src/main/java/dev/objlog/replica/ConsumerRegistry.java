package dev.objlog.replica;

import dev.objlog.Objlog;
import dev.objlog.RetentionGate;
import dev.objlog.lifecycle.ConsumerFloors;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The in-process consumers of one log and the floor each has applied, per partition: replicas
 * built with {@link Replica.Builder#consumerRegistry} publish here after every cursor save, and an
 * application may {@link #publish} its own consumers. Every published floor is also a retention
 * hold on the log ({@link Objlog#holdRetention(int, long)}), so this process's writers never
 * apply retention beyond it, and {@link dev.objlog.lifecycle.UntilConsumedRetention} reads the
 * floors through {@link ConsumerFloors}.
 *
 * <p>A consumer stays registered, and keeps holding retention, until {@link #unregister}: a
 * replica that stops or fails keeps its floor, because it may resume from there.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class ConsumerRegistry implements ConsumerFloors {
  private final Objlog log;
  /** Ordered by partition then consumer id, so floors are listed in a stable order. */
  private final ConcurrentSkipListMap<ConsumerKey, Entry> entries = new ConcurrentSkipListMap<>();

  private record Entry(long beforeLsn, RetentionGate.Hold hold) {}

  private record ConsumerKey(int partition, String consumer) implements Comparable<ConsumerKey> {
    @Override
    public int compareTo(ConsumerKey o) {
      int byPartition = Integer.compareUnsigned(partition, o.partition);
      return byPartition != 0 ? byPartition : consumer.compareTo(o.consumer);
    }
  }

  private ConsumerRegistry(Objlog log) {
    this.log = log;
  }

  /** A registry whose floors hold retention of {@code log}'s writers. */
  public static ConsumerRegistry on(Objlog log) {
    return new ConsumerRegistry(Objects.requireNonNull(log, "log"));
  }

  /**
   * Registers {@code consumer}'s floor of {@code partition} (u64: it has applied every record
   * below it), or moves it there.
   */
  public void publish(String consumer, int partition, long beforeLsn) {
    Objects.requireNonNull(consumer, "consumer");
    entries.compute(new ConsumerKey(partition, consumer), (k, e) -> {
      if (e == null) {
        return new Entry(beforeLsn, log.holdRetention(partition, beforeLsn));
      }
      e.hold().moveTo(beforeLsn);
      return new Entry(beforeLsn, e.hold());
    });
  }

  /** Forgets {@code consumer} in every partition and releases its holds; no-op when unknown. */
  public void unregister(String consumer) {
    Objects.requireNonNull(consumer, "consumer");
    for (Map.Entry<ConsumerKey, Entry> e : entries.entrySet()) {
      if (e.getKey().consumer().equals(consumer) && entries.remove(e.getKey(), e.getValue())) {
        e.getValue().hold().close();
      }
    }
  }

  @Override
  public List<ConsumerFloor> floors(int partition) {
    List<ConsumerFloor> out = new ArrayList<>();
    var from = entries.tailMap(new ConsumerKey(partition, ""), true);
    for (Map.Entry<ConsumerKey, Entry> e : from.entrySet()) {
      if (e.getKey().partition() != partition) {
        break;
      }
      out.add(new ConsumerFloor(e.getKey().consumer(), partition, e.getValue().beforeLsn()));
    }
    return List.copyOf(out);
  }

  @Override
  public String toString() {
    return "ConsumerRegistry[" + log.streamId() + ", " + entries.size() + " floors]";
  }
}
