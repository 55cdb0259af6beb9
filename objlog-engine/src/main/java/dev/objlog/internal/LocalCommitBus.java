package dev.objlog.internal;

import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.store.ObjectStore;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Tells readers in this JVM about a commit as soon as a writer in this JVM makes it, so a tailer
 * wakes without waiting for its next poll. One bus per {@link ObjectStore} instance, because
 * several logs (and readers of other logs) can share a store; subscriptions are keyed by the
 * partition's head key, which names store location, stream and partition.
 *
 * <p>Thread-safety: safe for concurrent use. Listeners run on the publishing writer's thread and
 * must only hand the news on (complete a future, signal a condition), never block.
 */
public final class LocalCommitBus {
  private static final Map<ObjectStore, LocalCommitBus> BUSES = new WeakHashMap<>();

  private final Map<String, List<Consumer<HeadSnapshot>>> listeners = new ConcurrentHashMap<>();

  private LocalCommitBus() {}

  /** The bus of this store instance. */
  public static LocalCommitBus of(ObjectStore store) {
    synchronized (BUSES) {
      return BUSES.computeIfAbsent(store, s -> new LocalCommitBus());
    }
  }

  /** Registers a listener for commits to {@code headKey}; close the returned handle to stop. */
  public Subscription subscribe(String headKey, Consumer<HeadSnapshot> listener) {
    List<Consumer<HeadSnapshot>> list = listeners.computeIfAbsent(headKey, k -> new CopyOnWriteArrayList<>());
    list.add(listener);
    return () -> {
      list.remove(listener);
      listeners.computeIfPresent(headKey, (k, l) -> l.isEmpty() ? null : l);
    };
  }

  /** Announces a committed head. Listener failures are contained: a reader cannot break a writer. */
  public void published(String headKey, HeadSnapshot head) {
    List<Consumer<HeadSnapshot>> list = listeners.get(headKey);
    if (list == null) {
      return;
    }
    for (Consumer<HeadSnapshot> listener : list) {
      try {
        listener.accept(head);
      } catch (RuntimeException ignored) {
        // The listener's own problem; the commit already happened and other listeners still need it.
      }
    }
  }

  /** A registration; closing it is idempotent. */
  @FunctionalInterface
  public interface Subscription extends AutoCloseable {
    @Override
    void close();
  }
}
