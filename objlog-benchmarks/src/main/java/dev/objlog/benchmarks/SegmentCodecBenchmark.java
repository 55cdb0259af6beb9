package dev.objlog.benchmarks;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RangeReader;
import dev.objlog.format.segment.RecordCursor;
import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SegmentRecord;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Segment encode and decode next to bare zstd-jni on the same bytes, in the same run: 16 MiB of
 * 1 KiB records per operation, 1 MiB blocks (so exactly 16 blocks), XXH64. The raw benchmarks
 * compress the very raw blocks the segment encoder builds and decompress the very frames, so the
 * ratio isolates what the format adds (record framing, hashing, validation, record objects).
 * {@code segmentDecode} replays through the zero-copy {@code RecordCursor} over an in-memory reader
 * that lends block bytes ({@code RangeReader.ofBytes}: no copy, as a memory or mapped store can);
 * {@code segmentDecodeReadInto} the same through a reader that copies each block into the
 * cursor's buffer ({@code readInto}, as a network store's response body must);
 * {@code segmentDecodeCopying} through {@code records()}, one record object and value copy each.
 * Throughput in MB/s of raw record bytes = 16 MiB / (ms per op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SegmentCodecBenchmark {
  static final int RECORD_BYTES = 1024;
  static final int BLOCK_BYTES = 1024 * 1024;
  static final int TOTAL_BYTES = 16 * 1024 * 1024;

  @Param({"1", "3"})
  public int level;

  private List<SegmentRecord> records;
  private SegmentEncoderOptions options;
  private byte[][] rawBlocks;
  private byte[][] frames;
  private byte[] segment;
  private byte[] compressBuffer;
  private byte[] decompressBuffer;
  private ZstdCompressCtx cctx;
  private ZstdDecompressCtx dctx;

  @Setup(Level.Trial)
  public void setUp() {
    records = textLikeRecords(42);
    byte[] id = new byte[16];
    options = new SegmentEncoderOptions(0, Codec.ZSTD, HashAlgorithm.XXH64, level, BLOCK_BYTES, 0, id, id);
    rawBlocks = rawBlocks(records);
    cctx = new ZstdCompressCtx().setLevel(level).setChecksum(false).setContentSize(true);
    dctx = new ZstdDecompressCtx();
    frames = new byte[rawBlocks.length][];
    for (int i = 0; i < rawBlocks.length; i++) {
      frames[i] = cctx.compress(rawBlocks[i]);
    }
    compressBuffer = new byte[BLOCK_BYTES + BLOCK_BYTES / 255 + 1024];
    decompressBuffer = new byte[BLOCK_BYTES];
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (SegmentEncoder encoder = new SegmentEncoder(options, out::write)) {
      records.forEach(encoder::append);
      encoder.finish();
    }
    segment = out.toByteArray();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    cctx.close();
    dctx.close();
  }

  /** Records of random words: compresses roughly like JSON payloads (about 3–4×). */
  static List<SegmentRecord> textLikeRecords(long seed) {
    String[] words = {"order", "customer", "id", "amount", "currency", "EUR", "USD", "status",
        "pending", "shipped", "\"", ":", ",", "{", "}", "true", "false", "null", "item", "sku",
        "quantity", "price", "address", "street", "city", "zip", "country", "timestamp"};
    SplittableRandom random = new SplittableRandom(seed);
    List<SegmentRecord> out = new ArrayList<>();
    int valueLen = RECORD_BYTES - 16;
    for (long lsn = 0; lsn < TOTAL_BYTES / RECORD_BYTES; lsn++) {
      byte[] value = new byte[valueLen];
      int p = 0;
      while (p < valueLen) {
        String w = random.nextInt(5) == 0 ? Long.toString(random.nextLong(1_000_000)) : words[random.nextInt(words.length)];
        for (int i = 0; i < w.length() && p < valueLen; i++) {
          value[p++] = (byte) w.charAt(i);
        }
        if (p < valueLen) {
          value[p++] = ' ';
        }
      }
      out.add(new SegmentRecord(lsn, 1_776_000_000_000L + lsn / 8, value));
    }
    return out;
  }

  /** The raw block contents the encoder builds: 1024 records of 1 KiB per 1 MiB block. */
  static byte[][] rawBlocks(List<SegmentRecord> records) {
    int perBlock = BLOCK_BYTES / RECORD_BYTES;
    byte[][] blocks = new byte[records.size() / perBlock][];
    for (int b = 0; b < blocks.length; b++) {
      ByteBuffer buf = ByteBuffer.allocate(BLOCK_BYTES);
      for (int i = 0; i < perBlock; i++) {
        SegmentRecord r = records.get(b * perBlock + i);
        buf.putLong(r.timestampMs()).putInt(0).putInt(r.value().length).put(r.value());
      }
      blocks[b] = buf.array();
    }
    return blocks;
  }

  @Benchmark
  public Object segmentEncode() {
    long[] written = new long[1];
    try (SegmentEncoder encoder = new SegmentEncoder(options, (b, off, len) -> written[0] += len)) {
      for (SegmentRecord r : records) {
        encoder.append(r);
      }
      return encoder.finish();
    }
  }

  @Benchmark
  public long rawZstdCompress() {
    long total = 0;
    for (byte[] raw : rawBlocks) {
      total += cctx.compressByteArray(compressBuffer, 0, compressBuffer.length, raw, 0, raw.length);
    }
    return total;
  }

  /**
   * Replay through the zero-copy cursor: every check of the copying path, but records are read in
   * place (LSN, timestamp and where the value lies in the block) instead of copied out.
   */
  @Benchmark
  public void segmentDecode(Blackhole bh) {
    replay(SegmentReader.open(RangeReader.ofBytes(segment), segment.length), bh);
  }

  private static void replay(SegmentReader reader, Blackhole bh) {
    try (RecordCursor cursor = reader.cursor()) {
      while (cursor.next()) {
        bh.consume(cursor.lsn());
        bh.consume(cursor.timestampMs());
        bh.consume(cursor.valueOffset());
        bh.consume(cursor.valueLength());
      }
    }
  }

  /** As {@link #segmentDecode}, but every block is copied into the cursor's buffer first. */
  @Benchmark
  public void segmentDecodeReadInto(Blackhole bh) {
    RangeReader lending = RangeReader.ofBytes(segment);
    RangeReader copying = new RangeReader() {
      @Override
      public byte[] read(long offset, int length) {
        return lending.read(offset, length);
      }

      @Override
      public int readInto(long offset, int length, byte[] dst, int dstOffset) {
        return lending.readInto(offset, length, dst, dstOffset);
      }
    };
    replay(SegmentReader.open(copying, segment.length), bh);
  }

  /** The copying path: {@code records()}, one {@link SegmentRecord} with its own value per record. */
  @Benchmark
  public void segmentDecodeCopying(Blackhole bh) {
    SegmentReader reader = SegmentReader.open(RangeReader.ofBytes(segment), segment.length);
    Iterator<SegmentRecord> it = reader.records();
    while (it.hasNext()) {
      bh.consume(it.next());
    }
  }

  @Benchmark
  public long rawZstdDecompress() {
    long total = 0;
    for (byte[] frame : frames) {
      total += dctx.decompressByteArray(decompressBuffer, 0, decompressBuffer.length, frame, 0, frame.length);
    }
    return total;
  }
}
