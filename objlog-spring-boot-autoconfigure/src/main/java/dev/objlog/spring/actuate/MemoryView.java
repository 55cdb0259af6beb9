package dev.objlog.spring.actuate;

import dev.objlog.MemoryBudget;
import dev.objlog.MemoryPart;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The memory budget as the {@code objlog} endpoint shows it ({@code memory} in {@code GET
 * /actuator/objlog}): a snapshot of {@link MemoryBudget}'s figures, bytes unless named otherwise.
 *
 * @param capacityBytes the budget's size
 * @param usedBytes what each part holds, by {@link MemoryPart#tag()} ({@code writers}, {@code
 *     blocks}, {@code segment-indexes}, {@code catalog-pages})
 * @param cachedBytes what all caches hold
 * @param reservedBytes bytes guaranteed to open writers, used or not
 * @param borrowedBytes bytes writers hold beyond their reservations
 * @param reclaimedBytes bytes caches evicted so that writers could grow, so far
 * @param writerWaitSeconds time writers waited for the budget, summed
 * @param zstdContexts native zstd contexts readers (decompression) and writers (compression) keep open
 *     <p>Thread-safety: immutable.
 */
public record MemoryView(long capacityBytes, Map<String, Long> usedBytes, long cachedBytes,
    long reservedBytes, long borrowedBytes, long reclaimedBytes, double writerWaitSeconds,
    long zstdContexts) {
  public MemoryView {
    usedBytes = Map.copyOf(usedBytes);
  }

  /** The figures of {@code budget} now. */
  public static MemoryView of(MemoryBudget budget) {
    Objects.requireNonNull(budget, "budget");
    Map<String, Long> used = new LinkedHashMap<>();
    budget.usedBytesByPart().forEach((part, bytes) -> used.put(part.tag(), bytes));
    return new MemoryView(budget.capacityBytes(), used, budget.cachedBytes(), budget.reservedBytes(),
        budget.borrowedBytes(), budget.reclaimedBytes(), budget.writerWaitTime().toNanos() / 1e9,
        budget.zstdContexts());
  }
}
