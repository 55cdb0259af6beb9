package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryBudgetTests {
  private static final long MIB = 1L << 20;

  @Test
  void theDefaultIsAQuarterOfTheHeapWithinItsFloorAndCeiling() {
    assertThat(MemoryBudget.defaultBytes(1024 * MIB)).isEqualTo(256 * MIB);
    assertThat(MemoryBudget.defaultBytes(64 * MIB)).as("floor").isEqualTo(32 * MIB);
    assertThat(MemoryBudget.defaultBytes(64L << 30)).as("ceiling").isEqualTo(2L << 30);
    assertThat(MemoryBudget.defaultBytes(Long.MAX_VALUE)).as("no heap limit").isEqualTo(2L << 30);
    assertThat(MemoryBudget.heapDefault().capacityBytes())
        .isEqualTo(MemoryBudget.defaultBytes(Runtime.getRuntime().maxMemory()));
  }

  @Test
  void optionsBuiltWithoutABudgetShareOneSoManyLogsGetOneEnvelope() {
    assertThat(ObjlogOptions.defaults().memoryBudget())
        .isSameAs(ObjlogOptions.builder().prefix("other").build().memoryBudget())
        .isSameAs(MemoryBudget.processDefault());
  }

  @Test
  void aGivenBudgetIsKeptThroughToBuilder() {
    MemoryBudget budget = MemoryBudget.ofBytes(64 * MIB);
    ObjlogOptions options = ObjlogOptions.builder().memoryBudget(budget).build();
    assertThat(options.memoryBudget()).isSameAs(budget);
    assertThat(options.toBuilder().build().memoryBudget()).isSameAs(budget);
    assertThat(budget.capacityBytes()).isEqualTo(64 * MIB);
    assertThat(budget.usedBytes()).isZero();
    assertThat(budget.reservedBytes()).isZero();
  }

  @Test
  void sizesAndSharesMustBePositive() {
    assertThatThrownBy(() -> MemoryBudget.ofBytes(0)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> MemoryBudget.ofHeapPercent(0)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> MemoryBudget.ofHeapPercent(101)).isInstanceOf(InvalidArgumentException.class);
    assertThat(MemoryBudget.ofHeapPercent(10).capacityBytes())
        .isEqualTo((long) (Runtime.getRuntime().maxMemory() * 0.10));
  }
}
