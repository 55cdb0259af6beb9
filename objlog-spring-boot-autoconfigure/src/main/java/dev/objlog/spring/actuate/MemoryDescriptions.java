package dev.objlog.spring.actuate;

import dev.objlog.MemoryBudget;
import java.util.LinkedHashMap;
import java.util.Map;

/** How the objlog endpoint shows the application context's memory budget (figures in memory, no store reads). */
final class MemoryDescriptions {
  private MemoryDescriptions() {}

  static Map<String, Object> describe(MemoryBudget budget) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("capacityBytes", budget.capacityBytes());
    details.put("usedBytes", budget.usedBytes());
    details.put("reservedBytes", budget.reservedBytes());
    details.put("borrowedBytes", budget.borrowedBytes());
    // seconds as a number, so that a page can chart it without parsing ISO-8601 durations
    details.put("writerWaitSeconds", budget.writerWaitTime().toNanos() / 1e9);
    return details;
  }
}
