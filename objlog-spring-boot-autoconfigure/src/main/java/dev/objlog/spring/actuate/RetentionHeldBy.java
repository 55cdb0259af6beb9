package dev.objlog.spring.actuate;

import dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The endpoint's {@code retentionHeldBy} field of a partition: who holds until-consumed retention
 * back ({@code consumer}, {@code beforeLsn}, {@code heldForSeconds}, {@code heldBytes}), or null
 * when nothing does; absent for streams without until-consumed retention.
 *
 * <p>Thread-safety: stateless.
 */
final class RetentionHeldBy {
  private RetentionHeldBy() {}

  static void put(Map<String, Object> details, @Nullable ObjlogLifecycleScheduler lifecycle, String streamName,
      int partition) {
    if (lifecycle == null || !lifecycle.isUntilConsumed(streamName)) {
      return;
    }
    details.put("retentionHeldBy", lifecycle.retentionHeldBy(streamName, partition).map(h -> {
      Map<String, Object> held = new LinkedHashMap<>();
      held.put("consumer", h.consumer());
      held.put("beforeLsn", ObjlogEndpoint.u64(h.beforeLsn()));
      held.put("heldForSeconds", h.heldFor().toSeconds());
      held.put("heldBytes", h.heldBytes());
      return (Object) held;
    }).orElse(null));
  }
}
