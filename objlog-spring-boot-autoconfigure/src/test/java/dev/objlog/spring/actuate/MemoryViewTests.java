package dev.objlog.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.MemoryBudget;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.store.memory.MemoryObjectStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The endpoint's overview shows the streams' memory budget: capacity, bytes by part, reservations. */
class MemoryViewTests {
  @Test
  void theOverviewShowsTheBudgetByPart() {
    MemoryBudget budget = MemoryBudget.ofBytes(64L << 20);
    try (ObjlogStreams streams = new ObjlogStreams(new MemoryObjectStore(),
        List.of(new ObjlogStream("orders", "shop/orders", 2)),
        ObjlogOptions.builder().memoryBudget(budget).build(), ReaderOptions.defaults())) {
      ObjlogEndpoint endpoint = new ObjlogEndpoint(streams, null, new StoreActivity());
      try (PartitionWriter writer = streams.log("orders").openWriter(0)) {
        writer.append(dev.objlog.LogRecord.of(1, "r0"));
        writer.flush();
        assertThat(streams.log("orders").reader().partition(0).read(0, 1).records()).hasSize(1);

        MemoryView memory = (MemoryView) endpoint.streams().get("memory");
        assertThat(memory.capacityBytes()).isEqualTo(64L << 20);
        assertThat(memory.reservedBytes()).isEqualTo(budget.reservedBytes()).isPositive();
        assertThat(memory.usedBytes()).containsOnlyKeys("writers", "blocks", "segment-indexes", "catalog-pages")
            .containsEntry("writers", 0L);
        assertThat(memory.usedBytes().get("blocks")).as("the record read is cached").isPositive();
        assertThat(memory.cachedBytes()).isEqualTo(budget.cachedBytes()).isPositive();
        assertThat(memory.writerWaitSeconds()).isZero();
        assertThat(memory.reclaimedBytes()).isZero();
        assertThat(memory.zstdContexts()).isEqualTo(budget.zstdContexts());
      }
    }
  }
}
