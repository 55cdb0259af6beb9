package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.store.CasResult;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.VersionToken;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.ForwardingObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.SteppedScheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/** {@link ObjlogOptions#storeIoExecutor()}: a caller that supplies the scheduler supplies the store I/O pool too. */
class StoreIoExecutorOptionTests {

  @Test
  void aStoreIoExecutorWithoutASchedulerIsRefused() {
    assertThatThrownBy(() -> ObjlogOptions.builder().storeIoExecutor(Runnable::run).build())
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("storeIoExecutor needs a scheduler");
  }

  @Test
  void uploadsAndHeadSwapsRunOnTheStoreIoExecutorNotOnTheScheduler() {
    MutableClock clock = new MutableClock();
    SteppedScheduler scheduler = new SteppedScheduler(clock, new SplittableRandom(3));
    Executor io = scheduler.pool("io");
    boolean[] inIo = {false};
    Executor marked = command -> io.execute(() -> {
      inIo[0] = true;
      try {
        command.run();
      } finally {
        inIo[0] = false;
      }
    });
    List<String> calls = new ArrayList<>();
    ForwardingObjectStore bucket = new ForwardingObjectStore(new MemoryObjectStore(clock)) {
      @Override
      public ObjectUpload startUpload(String key) {
        calls.add("upload on " + (inIo[0] ? "io" : "scheduler"));
        return delegate.startUpload(key);
      }

      @Override
      public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
        calls.add("swap on " + (inIo[0] ? "io" : "scheduler"));
        return delegate.compareAndSwap(key, expected, bytes);
      }
    };
    try (Objlog log = Objlog.open(bucket, "options/store-io", ObjlogOptions.builder().clock(clock)
        .sleeper(clock::advance).scheduler(scheduler).storeIoExecutor(marked).build())) {
      PartitionWriter writer = log.openWriter(0);
      calls.clear(); // the takeover swaps the head on the caller's thread
      for (int i = 0; i < 3; i++) {
        writer.append(LogRecord.of(clock.millis(), "r" + i));
        scheduler.runUntilDone(writer.flushAsync(), 10_000);
      }
      assertThat(writer.state().committed().nextLsn()).isEqualTo(3);
      assertThat(calls).as("store requests of the writer's background work")
          .contains("upload on io", "swap on io")
          .allMatch(c -> c.endsWith("on io"));
      writer.close();
    }
  }
}
