package dev.objlog.reliability;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tells real fencing overlaps from sequential losses in one JVM: one sequence numbers every head
 * compare-and-swap's start and end across all contenders. A publish that ends in a conflict is a
 * real overlap when a rival's successful takeover ended after that publish started, that is, the
 * two were in flight together; a loser whose rival had taken over before it even tried to publish
 * (the forced sequential step) is not counted.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class OverlapTracker {
  private final AtomicLong sequence = new AtomicLong();
  private final Map<String, Long> lastTakeoverEnd = new ConcurrentHashMap<>();

  long tick() {
    return sequence.incrementAndGet();
  }

  void tookOver(String contender, long endedAt) {
    lastTakeoverEnd.merge(contender, endedAt, Math::max);
  }

  boolean rivalTookOverSince(String contender, long startedAt) {
    return lastTakeoverEnd.entrySet().stream()
        .anyMatch(e -> !e.getKey().equals(contender) && e.getValue() > startedAt);
  }
}
