package dev.objlog.spring.actuate;

import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.store.ObjectStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * Asks the store for the metadata of one key ({@code <prefix>/selftest/health-probe}, which need
 * not exist) every interval and records the outcome in {@link StoreActivity}, so that health knows
 * whether the store answers even when the application sends nothing. One small request per
 * interval, on a daemon thread of its own; an interval of zero turns it off.
 *
 * <p>Thread-safety: safe for concurrent use; started and stopped by the application context.
 */
public class StoreProbe implements SmartLifecycle {
  private final ObjectStore store;
  private final StoreActivity activity;
  private final Duration interval;
  private final String key;
  private @Nullable ScheduledExecutorService executor;

  public StoreProbe(ObjectStore store, String prefix, StoreActivity activity, Duration interval) {
    this.store = Objects.requireNonNull(store, "store");
    this.activity = Objects.requireNonNull(activity, "activity");
    this.interval = Objects.requireNonNull(interval, "interval");
    this.key = KeyPrefixes.resolve(prefix).root() + "/selftest/health-probe";
  }

  /** One probe now. */
  public void probe() {
    try {
      store.head(key);
      activity.success();
    } catch (RuntimeException e) {
      activity.failure(e);
    }
  }

  @Override
  public synchronized void start() {
    if (executor == null && !interval.isZero()) {
      executor = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "objlog-store-probe");
        t.setDaemon(true);
        return t;
      });
      long millis = interval.toMillis();
      executor.scheduleWithFixedDelay(this::probe, millis, millis, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public synchronized void stop() {
    if (executor != null) {
      executor.shutdownNow();
      executor = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return executor != null;
  }
}
