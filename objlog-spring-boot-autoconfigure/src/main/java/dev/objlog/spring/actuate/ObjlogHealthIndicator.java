package dev.objlog.spring.actuate;

import dev.objlog.spring.core.LocalWriterStatus;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.StoreActivity;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * objlog's health, from cached state only (never a store request):
 *
 * <ul>
 *   <li>DOWN when one of the template's writers was fenced out by another writer or failed;
 *   <li>DOWN when store requests have failed, without a success since, for longer than the
 *       threshold ({@code objlog.health.store-unreachable-threshold});
 *   <li>DOWN when a writer has had sends pending, without any commit, for longer than the
 *       threshold (the store is not taking its uploads or commits);
 *   <li>UP otherwise.
 * </ul>
 *
 * <p>The store outcomes come from the template's sends, the endpoint's head reads and the
 * periodic {@link StoreProbe}.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public class ObjlogHealthIndicator implements HealthIndicator {
  private final @Nullable ObjlogTemplate template;
  private final StoreActivity activity;
  private final Duration threshold;
  private final Clock clock;

  public ObjlogHealthIndicator(@Nullable ObjlogTemplate template, StoreActivity activity, Duration threshold,
      Clock clock) {
    this.template = template;
    this.activity = Objects.requireNonNull(activity, "activity");
    this.threshold = Objects.requireNonNull(threshold, "threshold");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public Health health() {
    Instant now = clock.instant();
    boolean down = false;
    Map<String, Object> problems = new LinkedHashMap<>();
    int open = 0;
    if (template != null) {
      for (LocalWriterStatus status : template.writerStatuses()) {
        String name = status.streamName() + "/" + status.partition();
        switch (status.state()) {
          case OPEN -> open++;
          case FENCED -> {
            down = true;
            problems.put(name, "fenced out: another writer took the partition over");
          }
          case FAILED -> {
            down = true;
            problems.put(name, "failed: " + status.failure());
          }
          default -> { }
        }
        Instant since = latest(status.pendingSince(), status.lastCommit());
        if (status.pendingSends() > 0 && status.pendingSince() != null && since != null
            && Duration.between(since, now).compareTo(threshold) > 0) {
          down = true;
          problems.putIfAbsent(name, status.pendingSends() + " sends pending with no commit since " + since);
        }
      }
    }
    StoreActivity.Snapshot store = activity.snapshot();
    Map<String, Object> storeDetails = new LinkedHashMap<>();
    storeDetails.put("lastSuccess", store.lastSuccess());
    storeDetails.put("lastFailure", store.lastFailure());
    if (store.failingSince() != null) {
      storeDetails.put("failingSince", store.failingSince());
      storeDetails.put("lastError", store.lastError());
      if (Duration.between(store.failingSince(), now).compareTo(threshold) > 0) {
        down = true;
        problems.put("store", "unreachable since " + store.failingSince() + ": " + store.lastError());
      }
    }
    Health.Builder health = down ? Health.down() : Health.up();
    health.withDetail("openWriters", open);
    health.withDetail("store", storeDetails);
    if (!problems.isEmpty()) {
      health.withDetail("problems", problems);
    }
    return health.build();
  }

  private static @Nullable Instant latest(@Nullable Instant a, @Nullable Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || a.isAfter(b) ? a : b;
  }
}
