package dev.objlog.benchmarks;

import dev.objlog.LogRecord;
import dev.objlog.MemoryBudget;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.Codec;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.io.IOException;
import java.io.PrintStream;
import com.sun.management.GcInfo;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One point of P7, in a fresh child JVM (so its RSS baseline is its own, not what earlier
 * scenarios left in the harness JVM): {@code PARTITIONS} writers of one stream on a filesystem
 * store behind a slow fault decorator, one {@link MemoryBudget} of {@code BUDGET_MIB}, and up to
 * four producer threads appending 1 KiB records as fast as backpressure lets them for {@code
 * SECONDS}.
 *
 * <pre>
 * WriterMemoryProcess DIR PARTITIONS SECONDS BUDGET_MIB SAMPLE_MS
 * </pre>
 *
 * <p>Stdout: {@code baseline RSS HEAP} (bytes, before the log opened, heap after GC), one {@code
 * sample SECONDS HEAP_AFTER_GC RSS DIRECT MAPPED BUDGET_USED} per sample (bytes), {@code nmt
 * TOTAL_COMMITTED HEAP_COMMITTED} (KB, from {@code jcmd VM.native_memory summary} at the end of the
 * overload, when the JVM runs with {@code -XX:NativeMemoryTracking=summary}; -1 otherwise), then
 * {@code records N} and {@code done}.
 */
public final class WriterMemoryProcess {
  /** 256 KiB blocks and records of at most 64 KiB: 256 writers' reservations fit a 128 MiB budget. */
  static final int BLOCK_BYTES = 256 << 10;
  static final int MAX_RECORD_BYTES = 64 << 10;
  static final int VALUE_BYTES = 1024;

  private WriterMemoryProcess() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int partitions = Integer.parseInt(args[1]);
    double seconds = Double.parseDouble(args[2]);
    long budgetBytes = Long.parseLong(args[3]) << 20;
    long sampleMs = Long.parseLong(args[4]);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    byte[] pool = Data.textPool(8 << 20, 20261203L);
    out.println("baseline " + rss() + " " + heapAfterGc());

    MemoryBudget budget = MemoryBudget.ofBytes(budgetBytes);
    FaultInjectingObjectStore slow = FaultInjectingObjectStore.builder(FilesystemObjectStore.open(dir))
        .latency(Duration.ofMillis(20), Duration.ZERO).bandwidth(5_000_000).build();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong count = new AtomicLong();
    try (Objlog log = Objlog.open(slow, "bench/p7", ObjlogOptions.builder().memoryBudget(budget).build())) {
      WriterOptions o = WriterOptions.builder().batch(Duration.ofMillis(10), 8L << 20, 16_384)
          .backpressure(new WriterOptions.BackpressurePolicy(4, 64L << 20, false, MAX_RECORD_BYTES))
          .pipeline(new WriterOptions.Pipeline(BLOCK_BYTES, Codec.ZSTD, 1, HashAlgorithm.XXH64, null)).build();
      List<PartitionWriter> writers = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        writers.add(log.openWriter(p, o));
      }
      int threads = Math.min(4, partitions);
      List<Thread> producers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int first = t;
        Thread producer = new Thread(() -> {
          long i = 0;
          try {
            while (!stop.get()) {
              for (int p = first; p < partitions && !stop.get(); p += threads) {
                writers.get(p).append(LogRecord.of(1_776_000_000_000L, Data.value(pool, i++, VALUE_BYTES)));
                count.incrementAndGet();
              }
            }
          } catch (RuntimeException e) {
            // the abort below ends a blocked append
          }
        }, "producer-" + t);
        producer.start();
        producers.add(producer);
      }
      long t0 = System.nanoTime();
      long end = t0 + (long) (seconds * 1e9);
      while (System.nanoTime() < end) {
        Thread.sleep(sampleMs);
        long heap = heapAfterGc();
        out.println("sample " + (System.nanoTime() - t0) / 1e9 + " " + heap + " " + rss() + " " + buffers("direct")
            + " " + buffers("mapped") + " " + budget.usedBytes());
      }
      long[] nmt = nativeMemory();
      out.println("nmt " + nmt[0] + " " + nmt[1]);
      stop.set(true);
      for (PartitionWriter w : writers) {
        w.abort();
      }
      for (Thread p : producers) {
        p.join(10_000);
      }
    }
    out.println("records " + count.get());
    out.println("done");
  }

  /**
   * {@code System.gc()}, then the heap in use right after that collection as the collector reports
   * it ({@code GcInfo.getMemoryUsageAfterGc}, heap pools summed). Reading {@code
   * MemoryMXBean.getHeapMemoryUsage()} instead, after the call returns, also counts what the
   * producers allocated since: under this overload that read 200-420 MiB where a class histogram
   * of live objects found 116-174 MB. -1 when no full collection could be had.
   */
  static long heapAfterGc() {
    List<com.sun.management.GarbageCollectorMXBean> collectors = new ArrayList<>();
    List<Long> before = new ArrayList<>();
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof com.sun.management.GarbageCollectorMXBean c) {
        collectors.add(c);
        before.add(c.getCollectionCount());
      }
    }
    List<String> heapPools = new ArrayList<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
    // A System.gc() that finds a thread in a JNI critical section (zstd-jni compressing) may end
    // without a full collection (-Xlog:gc shows none): ask again, and report -1 (the sample is
    // left out) rather than a figure no full collection produced.
    for (int attempt = 0; attempt < 5; attempt++) {
      System.gc();
      for (int i = 0; i < collectors.size(); i++) {
        com.sun.management.GarbageCollectorMXBean c = collectors.get(i);
        GcInfo info = c.getLastGcInfo();
        if (c.getCollectionCount() > before.get(i) && !c.getName().contains("Young") && info != null) {
          long used = 0;
          for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
              used += e.getValue().getUsed();
            }
          }
          return used;
        }
      }
    }
    return -1;
  }

  static long rss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return -1;
  }

  private static long buffers(String name) {
    for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (b.getName().equals(name)) {
        return b.getMemoryUsed();
      }
    }
    return -1;
  }

  /**
   * Total and Java-heap committed KB from Native Memory Tracking, through {@code jcmd} on this
   * process; {-1, -1} when tracking is off or jcmd is missing.
   */
  private static long[] nativeMemory() {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    try {
      Process p = new ProcessBuilder(jcmd.toString(), Long.toString(ProcessHandle.current().pid()),
          "VM.native_memory", "summary").redirectErrorStream(true).start();
      String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      return new long[] {committedKb(text, "Total:"), committedKb(text, "Java Heap (")};
    } catch (IOException e) {
      return new long[] {-1, -1};
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new long[] {-1, -1};
    }
  }

  static long committedKb(String nmt, String section) {
    int at = nmt.indexOf(section);
    if (at < 0) {
      return -1;
    }
    Matcher m = Pattern.compile("committed=(\\d+)KB").matcher(nmt);
    return m.find(at) ? Long.parseLong(m.group(1)) : -1;
  }
}
