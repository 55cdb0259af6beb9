package dev.objlog.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.function.LongSupplier;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Ratios of {@link SegmentCodecBenchmark}'s format operations to their bare zstd-jni references
 * measured <em>interleaved</em>: each round times one raw operation and one format operation back to
 * back (alternating which goes first), so load from other processes on a shared machine hits both
 * sides of a pair alike. Reports, per pair, the median of the per-round throughput ratios (raw time
 * / format time) with its interquartile range, and each side's median time. JMH stays the reference
 * for absolute figures; this is for the ratio when the machine is not quiet.
 *
 * <p>{@code java -cp objlog-benchmarks/target/objlog-benchmarks.jar
 * dev.objlog.benchmarks.SegmentCodecPairedRatio [rounds] [warmupSeconds] [pairs]}, where {@code
 * pairs} (optional) keeps only the pairs named, comma-separated ({@code encode}, {@code decode},
 * {@code decode-readinto}, {@code decode-copy}) at one level if given ({@code
 * decode,decode-readinto:1}).
 */
public final class SegmentCodecPairedRatio {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private SegmentCodecPairedRatio() {}

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    int warmupSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    String[] filter = (args.length > 2 ? args[2] : "").split(":", 2);
    Blackhole bh = new Blackhole(
        "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
    for (int level : new int[] {1, 3}) {
      if (filter.length > 1 && !filter[1].equals(Integer.toString(level))) {
        continue;
      }
      SegmentCodecBenchmark b = new SegmentCodecBenchmark();
      b.level = level;
      b.setUp();
      try {
        if (wanted(filter[0], "encode")) {
          pair("encode       level " + level, b::rawZstdCompress,
              () -> b.segmentEncode().hashCode(), rounds, warmupSeconds);
        }
        if (wanted(filter[0], "decode")) {
          pair("decode       level " + level, b::rawZstdDecompress,
              () -> { b.segmentDecode(bh); return 0; }, rounds, warmupSeconds);
        }
        if (wanted(filter[0], "decode-readinto")) {
          pair("decode-readinto level " + level, b::rawZstdDecompress,
              () -> { b.segmentDecodeReadInto(bh); return 0; }, rounds, warmupSeconds);
        }
        if (wanted(filter[0], "decode-copy")) {
          pair("decode-copy  level " + level, b::rawZstdDecompress,
              () -> { b.segmentDecodeCopying(bh); return 0; }, rounds, warmupSeconds);
        }
      } finally {
        b.tearDown();
      }
    }
  }

  /** Names are whole ("decode" is not "decode-copy"); an empty filter keeps every pair. */
  private static boolean wanted(String filter, String pair) {
    return filter.isEmpty() || Arrays.asList(filter.split(",")).contains(pair);
  }

  private static void pair(String name, LongSupplier raw, LongSupplier format, int rounds, int warmupSeconds) {
    long sink = 0;
    long warmEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
    while (System.nanoTime() < warmEnd) {
      sink += raw.getAsLong() + format.getAsLong();
    }
    double[] ratios = new double[rounds];
    double[] cpuRatios = new double[rounds];
    double[] rawMs = new double[rounds];
    double[] formatMs = new double[rounds];
    long[] rawTimes = new long[2];
    long[] formatTimes = new long[2];
    for (int i = 0; i < rounds; i++) {
      if ((i & 1) == 0) {
        sink += time(raw, rawTimes) + time(format, formatTimes);
      } else {
        sink += time(format, formatTimes) + time(raw, rawTimes);
      }
      ratios[i] = (double) rawTimes[0] / formatTimes[0];
      cpuRatios[i] = (double) rawTimes[1] / formatTimes[1];
      rawMs[i] = rawTimes[0] / 1e6;
      formatMs[i] = formatTimes[0] / 1e6;
    }
    Arrays.sort(ratios);
    Arrays.sort(cpuRatios);
    Arrays.sort(rawMs);
    Arrays.sort(formatMs);
    System.out.printf("%s: ratio median %.3f (IQR %.3f..%.3f), by thread CPU time %.3f (IQR %.3f..%.3f)"
        + " | raw median %.2f ms, format median %.2f ms | %d rounds%s%n", name, q(ratios, 0.5),
        q(ratios, 0.25), q(ratios, 0.75), q(cpuRatios, 0.5), q(cpuRatios, 0.25), q(cpuRatios, 0.75),
        q(rawMs, 0.5), q(formatMs, 0.5), rounds, sink == 42 ? " " : "");
  }

  /**
   * Runs {@code op} once on this thread; {@code out} gets its wall time and this thread's CPU time
   * (ns). CPU time leaves out the time the thread waited for a core, which on a shared machine
   * is most of the noise; both operations are single-threaded.
   */
  private static long time(LongSupplier op, long[] out) {
    long cpu0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    long result = op.getAsLong();
    out[0] = System.nanoTime() - t0;
    out[1] = THREADS.getCurrentThreadCpuTime() - cpu0;
    return result;
  }

  private static double q(double[] sorted, double p) {
    return sorted[(int) Math.min(sorted.length - 1, Math.round(p * (sorted.length - 1)))];
  }
}
