package dev.objlog.benchmarks;

import java.util.Arrays;

/**
 * {@link WriterThroughputBenchmark}'s writer operation and its bare zstd-jni reference measured
 * <em>interleaved</em> (one of each per round, alternating which goes first), so load from other
 * processes on a shared machine hits both sides of a pair alike. Reports per configuration the
 * median of the per-round throughput ratios (raw time / writer time) with its interquartile range,
 * and each side's median time. The writer and its in-memory store are reopened every 8 rounds.
 *
 * <p>Also the process CPU time of each operation (all threads, GC and JIT included) as a ratio,
 * raw CPU / writer CPU: what the writer spends beyond compression, which load from other processes
 * does not change (the wall-clock ratio needs idle cores to show parallel sealing).
 *
 * <p>{@code java -cp objlog-benchmarks/target/objlog-benchmarks.jar
 * dev.objlog.benchmarks.WriterThroughputPairedRatio [rounds] [warmupSeconds]}
 */
public final class WriterThroughputPairedRatio {
  private WriterThroughputPairedRatio() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 24;
    int warmupSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    for (int level : new int[] {1, 3}) {
      for (int threads : new int[] {1, 2}) {
        WriterThroughputBenchmark b = new WriterThroughputBenchmark();
        b.level = level;
        b.threads = threads;
        b.setUp();
        try {
          run(b, rounds, warmupSeconds);
        } finally {
          b.tearDown();
        }
      }
    }
  }

  private static void run(WriterThroughputBenchmark b, int rounds, int warmupSeconds) {
    long sink = 0;
    b.openWriter();
    try {
      long warmEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
      while (System.nanoTime() < warmEnd) {
        sink += b.rawZstdCompress() + b.writerAppendCommit().nextLsn();
      }
      double[] ratios = new double[rounds];
      double[] cpuRatios = new double[rounds];
      double[] rawMs = new double[rounds];
      double[] writerMs = new double[rounds];
      for (int i = 0; i < rounds; i++) {
        if (i > 0 && i % 8 == 0) {
          b.closeWriter();
          b.openWriter();
        }
        long r;
        long w;
        long rc;
        long wc;
        if ((i & 1) == 0) {
          long c0 = cpu();
          long t0 = System.nanoTime();
          sink += b.rawZstdCompress();
          long t1 = System.nanoTime();
          long c1 = cpu();
          sink += b.writerAppendCommit().nextLsn();
          long t2 = System.nanoTime();
          long c2 = cpu();
          r = t1 - t0;
          w = t2 - t1;
          rc = c1 - c0;
          wc = c2 - c1;
        } else {
          long c0 = cpu();
          long t0 = System.nanoTime();
          sink += b.writerAppendCommit().nextLsn();
          long t1 = System.nanoTime();
          long c1 = cpu();
          sink += b.rawZstdCompress();
          long t2 = System.nanoTime();
          long c2 = cpu();
          w = t1 - t0;
          r = t2 - t1;
          wc = c1 - c0;
          rc = c2 - c1;
        }
        ratios[i] = (double) r / w;
        cpuRatios[i] = (double) rc / Math.max(1, wc);
        rawMs[i] = r / 1e6;
        writerMs[i] = w / 1e6;
      }
      Arrays.sort(ratios);
      Arrays.sort(cpuRatios);
      Arrays.sort(rawMs);
      Arrays.sort(writerMs);
      double mb = 16.0 * 1024 * 1024 / 1e6;
      System.out.printf("level %d threads %d: writer/raw median %.3f (IQR %.3f..%.3f) | raw %.1f ms (%.0f MB/s),"
          + " writer %.1f ms (%.0f MB/s) | CPU raw/writer median %.3f (IQR %.3f..%.3f) | %d rounds%s%n",
          b.level, b.threads, q(ratios, 0.5), q(ratios, 0.25),
          q(ratios, 0.75), q(rawMs, 0.5), mb / q(rawMs, 0.5) * 1000, q(writerMs, 0.5),
          mb / q(writerMs, 0.5) * 1000, q(cpuRatios, 0.5), q(cpuRatios, 0.25), q(cpuRatios, 0.75), rounds,
          sink == 42 ? " " : "");
    } finally {
      b.closeWriter();
    }
  }

  /** Process CPU time in ns (all threads). */
  static long cpu() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static double q(double[] sorted, double p) {
    return sorted[(int) Math.round(p * (sorted.length - 1))];
  }
}
