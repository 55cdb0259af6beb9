package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.memory.MemoryObjectStore;
import org.junit.jupiter.api.Test;

class ObjlogTests {

  @Test
  void streamIdsAreCanonicalizedAndInvalidOnesRefusedWithTheRule() {
    MemoryObjectStore store = new MemoryObjectStore();
    try (Objlog log = Objlog.open(store, "/demo/orders/")) {
      assertThat(log.streamId()).isEqualTo("demo/orders");
    }
    assertThatThrownBy(() -> Objlog.open(store, "demo//orders")).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> Objlog.open(store, "demo/../x")).isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void missingPartitionHasNoHeadUntilInitialized() {
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "demo/orders")) {
      assertThat(log.head(3)).isEmpty();
      PartitionHead created = log.initializePartition(3, 100);
      assertThat(created.nextLsn()).isEqualTo(100);
      assertThat(created.oldestLsn()).isEqualTo(100);
      assertThat(created.writerEpoch()).isZero();
      PartitionHead again = log.initializePartition(3, 5);
      assertThat(again.nextLsn()).as("an existing partition keeps its position").isEqualTo(100);
      assertThat(log.head(3)).hasValue(created);
    }
  }

  @Test
  void aClosedLogRefusesWork() {
    Objlog log = Objlog.open(new MemoryObjectStore(), "demo/orders");
    log.close();
    log.close();
    assertThatThrownBy(() -> log.head(0)).isInstanceOf(ObjlogException.class).hasMessageContaining("closed");
  }

  @Test
  void badOptionsAreRefusedWithTheirLimits() {
    assertThatThrownBy(() -> ObjlogOptions.builder().catalogLimits(0, 128).build())
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("leafLimit must be 1..1024");
    assertThatThrownBy(() -> ObjlogOptions.builder().catalogLimits(128, 1).build())
        .hasMessageContaining("indexLimit must be 2..1024");
  }
}
