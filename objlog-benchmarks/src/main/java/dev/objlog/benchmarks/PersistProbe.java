package dev.objlog.benchmarks;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 23's profile of the write path on the filesystem store, by hand (not a harness scenario:
 * it measures one part, not a target). Two modes:
 *
 * <ul>
 *   <li>{@code persist}: one record, {@code cut()} at once, wait for its commit, then pause; the
 *       cut → commit time is the pipeline's persist time alone (seal, upload, head swap and the
 *       thread hand-offs between them), with no batch age in it.
 *   <li>{@code inflight}: {@code WINDOW} outstanding appends of 1 KiB (P8's saturation load on the
 *       engine), sampling {@code objlog.writer.inflight.segments} every 0.2 ms: whether the limit
 *       of segments in flight is what holds a saturated writer back.
 * </ul>
 *
 * <pre>
 * PersistProbe persist fsync|nosync COUNT PAUSE_MICROS VALUE_BYTES
 * PersistProbe inflight fsync|nosync WINDOW
 * </pre>
 *
 * <p>Thread-safety: a program; one thread drives the writer (and one samples the gauge).
 */
public final class PersistProbe {
  private PersistProbe() {}

  public static void main(String[] args) throws Exception {
    boolean durable = args[1].equals("fsync");
    Path dir = Files.createTempDirectory("objlog-persist-probe-");
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    try (Objlog log = Objlog.open(FilesystemObjectStore.builder(dir).durableWrites(durable).build(), "probe",
        ObjlogOptions.builder().meterRegistry(meters).build());
        PartitionWriter writer = log.openWriter(0)) {
      if (args[0].equals("persist")) {
        persist(writer, args[1], Integer.parseInt(args[2]), Long.parseLong(args[3]), Integer.parseInt(args[4]));
      } else {
        inflight(writer, meters, args[1], Integer.parseInt(args[2]));
      }
    } finally {
      Scenarios.deleteTree(dir);
    }
  }

  private static void persist(PartitionWriter writer, String mode, int count, long pauseMicros, int valueBytes) {
    byte[] value = Data.value(Data.textPool(4 << 20, 20261206L), 0, valueBytes);
    for (int pass = 0; pass < 2; pass++) { // the first pass warms the JIT and the store's folders
      double[] ms = new double[count];
      for (int i = 0; i < count; i++) {
        long t0 = System.nanoTime();
        var appended = writer.append(LogRecord.of(System.currentTimeMillis(), value));
        writer.cut();
        appended.committed().join();
        ms[i] = (System.nanoTime() - t0) / 1e6;
        SendDriver.waitUntil(System.nanoTime() + pauseMicros * 1000);
      }
      if (pass == 1) {
        double mean = Arrays.stream(ms).average().orElse(0);
        Arrays.sort(ms);
        System.out.printf("persist %s, %d B, pause %d µs: mean %.3f p50 %.3f p90 %.3f p99 %.3f max %.3f ms%n", mode,
            valueBytes, pauseMicros, mean, Data.percentile(ms, 50), Data.percentile(ms, 90), Data.percentile(ms, 99),
            ms[count - 1]);
      }
    }
  }

  private static void inflight(PartitionWriter writer, SimpleMeterRegistry meters, String mode, int window)
      throws Exception {
    byte[] pool = Data.textPool(4 << 20, 20261206L);
    byte[][] values = new byte[65_536][];
    for (int i = 0; i < values.length; i++) {
      values[i] = Data.indexedValue(pool, i, 1024);
    }
    SendDriver.Sender sender = (i, v) -> writer.append(LogRecord.of(System.currentTimeMillis(), v)).committed();
    for (int k = 0; k < 3; k++) {
      SendDriver.outstanding(sender, values, values.length, window);
    }
    Gauge inflight = meters.get("objlog.writer.inflight.segments").gauge();
    int[] samples = new int[8];
    AtomicBoolean stop = new AtomicBoolean();
    Thread sampler = new Thread(() -> {
      while (!stop.get()) {
        samples[(int) Math.min(samples.length - 1, Math.max(0, inflight.value()))]++;
        LockSupport.parkNanos(200_000);
      }
    }, "inflight-sampler");
    sampler.start();
    for (int k = 0; k < 3; k++) {
      SendDriver.Run run = SendDriver.outstanding(sender, values, values.length, window);
      System.out.printf("inflight %s, %d outstanding: %.0f records/s, p50 %.1f p99 %.1f ms%n", mode, window,
          run.recordsPerSecond(), run.p(50), run.p(99));
    }
    stop.set(true);
    sampler.join();
    System.out.println("samples with 0, 1, 2, … 7+ segments in flight: " + Arrays.toString(samples));
  }
}
