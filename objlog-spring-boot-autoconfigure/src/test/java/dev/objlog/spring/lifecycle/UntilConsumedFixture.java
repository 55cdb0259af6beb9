package dev.objlog.spring.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.PartitionHead;
import dev.objlog.read.Freshness;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** What the until-consumed retention tests read of {@code orders/0} and its {@code billing} listener. */
final class UntilConsumedFixture {
  private UntilConsumedFixture() {}

  /** The next LSN {@code billing} checkpointed on {@code orders/0}, or -1 before its first save. */
  static long checkpointed(CheckpointRepository checkpoints) {
    return checkpoints.load("billing", "orders", 0).map(s -> s.checkpoint().nextLsn()).orElse(-1L);
  }

  static PartitionHead head(ObjlogStreams streams) {
    return streams.reader("orders").partition(0).head(Freshness.LATEST);
  }

  /** Waits, within 30 s, for what a listener thread does. */
  static void await(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("condition within 30 s").isNegative();
      Thread.sleep(5);
    }
  }
}
