package dev.objlog.benchmarks;

import com.github.luben.zstd.ZstdCompressCtx;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.SegmentRecord;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Writer throughput, append to commit, on a {@link MemoryObjectStore}, next to bare zstd-jni
 * compression of the same bytes with the same number of threads, in the same run.
 *
 * <p>Per operation: 16 MiB of 1 KiB records (16 384 records, 1 008-byte text-like values plus the
 * 16-byte envelope, so exactly 1 024 records per 1 MiB block), appended to one partition writer
 * and committed ({@code flush()}); the records are built once (timestamp 0), so the operation is
 * the writer's work only. Batches cut at 4 096 records (4 MiB segments, four per
 * operation, so cut segments overlap), no age limit, default backpressure, zstd at {@code level},
 * XXH64, sealing on the log's scheduler with {@code threads} seals at once.
 *
 * <p>{@code rawZstdCompress}: the same sixteen 1 MiB raw blocks compressed by {@code threads}
 * threads (the caller and {@code threads - 1} pool threads), each with its own reused context.
 * Throughput in MB/s of raw record bytes = 16 MiB / (ms per op); the P1 target is writer ≥ 0.8 ×
 * raw at the same thread count.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class WriterThroughputBenchmark {
  static final int SEGMENT_RECORDS = 4096;

  @Param({"1", "3"})
  public int level;

  @Param({"1", "2"})
  public int threads;

  private List<LogRecord> records;
  private byte[][] rawBlocks;
  private ExecutorService helpers;
  private ZstdCompressCtx[] contexts;
  private byte[][] outputs;

  private Objlog log;
  private PartitionWriter writer;

  @Setup(Level.Trial)
  public void setUp() {
    List<SegmentRecord> source = SegmentCodecBenchmark.textLikeRecords(42);
    records = new ArrayList<>(source.size());
    for (SegmentRecord r : source) {
      // Built once: LogRecord.of copies the value, which is the caller's cost, not the writer's.
      records.add(LogRecord.of(0, r.value()));
    }
    rawBlocks = SegmentCodecBenchmark.rawBlocks(source);
    helpers = threads > 1 ? Executors.newFixedThreadPool(threads - 1) : null;
    contexts = new ZstdCompressCtx[threads];
    outputs = new byte[threads][];
    for (int t = 0; t < threads; t++) {
      contexts[t] = new ZstdCompressCtx().setLevel(level).setChecksum(false).setContentSize(true);
      outputs[t] = new byte[SegmentCodecBenchmark.BLOCK_BYTES + SegmentCodecBenchmark.BLOCK_BYTES / 255 + 1024];
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (helpers != null) {
      helpers.shutdownNow();
    }
    for (ZstdCompressCtx c : contexts) {
      c.close();
    }
  }

  /** A fresh store, log and writer per iteration, so the in-memory bucket does not grow for ever. */
  @Setup(Level.Iteration)
  public void openWriter() {
    log = Objlog.open(new MemoryObjectStore(), "bench/writer", ObjlogOptions.builder().prefix("b").build());
    writer = log.openWriter(0, writerOptions(level, threads));
  }

  @TearDown(Level.Iteration)
  public void closeWriter() {
    writer.close();
    log.close();
  }

  static WriterOptions writerOptions(int level, int threads) {
    return WriterOptions.builder()
        .batch(Duration.ZERO, 64L << 20, SEGMENT_RECORDS)
        .pipeline(PipelineOptions.of(level, threads))
        .build();
  }

  @Benchmark
  public PartitionHead writerAppendCommit() {
    for (LogRecord r : records) {
      writer.append(r);
    }
    return writer.flush();
  }

  @Benchmark
  public long rawZstdCompress() {
    if (threads == 1) {
      return compressShare(0);
    }
    List<CompletableFuture<Long>> others = new ArrayList<>();
    for (int t = 1; t < threads; t++) {
      int share = t;
      others.add(CompletableFuture.supplyAsync(() -> compressShare(share), helpers));
    }
    long total = compressShare(0);
    for (CompletableFuture<Long> f : others) {
      total += f.join();
    }
    return total;
  }

  private long compressShare(int t) {
    long total = 0;
    ZstdCompressCtx ctx = contexts[t];
    byte[] out = outputs[t];
    for (int b = t; b < rawBlocks.length; b += threads) {
      byte[] raw = rawBlocks[b];
      total += ctx.compressByteArray(out, 0, out.length, raw, 0, raw.length);
    }
    return total;
  }

  /** The pipeline options, in one place so before/after builds differ only here. */
  static final class PipelineOptions {
    private PipelineOptions() {}

    static WriterOptions.Pipeline of(int level, int threads) {
      // Before the pipelined writer (branch point e18ef5e) there was no sealParallelism: blocks
      // were compressed on the appending thread and segments finished on the log's scheduler; the
      // "before" figures in docs/BENCHMARKS.md used the 5-argument constructor here.
      return new WriterOptions.Pipeline(SegmentCodecBenchmark.BLOCK_BYTES, Codec.ZSTD, level,
          HashAlgorithm.XXH64, null, threads);
    }
  }
}
