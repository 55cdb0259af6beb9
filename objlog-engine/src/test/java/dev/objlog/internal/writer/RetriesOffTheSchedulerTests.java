package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.keys;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.open;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Retried uploads and head swaps wait on the store again, so after their backoff they run on the
 * log's store I/O threads, never on the scheduler threads that seal blocks: a store that is slow
 * and failing must not also stall compression.
 */
class RetriesOffTheSchedulerTests {

  @Test
  void aRetriedUploadAndARetriedHeadSwapRunOnStoreIoThreads() {
    List<String> requestThreads = new CopyOnWriteArrayList<>();
    FaultInjectingObjectStore store = FaultInjectingObjectStore.builder(new MemoryObjectStore())
        .latency(Duration.ofMillis(1), Duration.ZERO)
        .sleeper(d -> requestThreads.add(Thread.currentThread().getName()))
        .build();
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      writer.append(record(1, "a"));
      writer.flush();
      store.addRule(new FaultRule(Set.of(Operation.UPLOAD), "", Fault.ERROR_BEFORE, 1));
      store.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP), keys(PARTITION).head(), Fault.ERROR_BEFORE, 1));
      requestThreads.clear();
      writer.append(record(2, "b"));
      writer.flush();

      assertThat(store.injectedFaults()).extracting(FaultInjectingObjectStore.InjectedFault::fault)
          .containsExactly(Fault.ERROR_BEFORE, Fault.ERROR_BEFORE);
      assertThat(requestThreads).as("threads of the store requests of the second segment").isNotEmpty()
          .allSatisfy(name -> assertThat(name).contains("-io-"));
      assertThat(readCommitted(store, PARTITION).values()).containsExactly("a", "b");
    }
  }
}
