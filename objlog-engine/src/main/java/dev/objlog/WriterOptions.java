package dev.objlog;

import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.format.segment.SegmentFormat;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link PartitionWriter} batches, bounds and commits records. Build with {@link
 * #builder()}; {@link #defaults()} suits most uses (10 ms batches, blocking backpressure).
 *
 * <p>Thread-safety: immutable (the writer id is copied in and out).
 *
 * @param writerId 16 bytes identifying this writer incarnation in the catalog fence; never all
 *     zero, and unique per {@code openWriter} call (the default is random)
 * @param batch when the batch being built is cut into a segment
 * @param backpressure how much may be cut but not yet committed
 * @param adaptiveDelay optionally lets the batch delay follow the observed commit latency
 * @param pipeline how segments are laid out and sealed
 * @param timeouts how long background work may keep retrying before the writer fails
 */
public record WriterOptions(
    byte[] writerId,
    BatchPolicy batch,
    BackpressurePolicy backpressure,
    AdaptiveDelay adaptiveDelay,
    Pipeline pipeline,
    Timeouts timeouts) {

  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * @throws InvalidArgumentException if the writer id is not 16 bytes or is all zero
   */
  public WriterOptions {
    Objects.requireNonNull(writerId, "writerId");
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(backpressure, "backpressure");
    Objects.requireNonNull(adaptiveDelay, "adaptiveDelay");
    Objects.requireNonNull(pipeline, "pipeline");
    Objects.requireNonNull(timeouts, "timeouts");
    if (writerId.length != 16) {
      throw new InvalidArgumentException("writerId must be 16 bytes, was " + writerId.length);
    }
    boolean zero = true;
    for (byte b : writerId) {
      zero &= b == 0;
    }
    if (zero) {
      throw new InvalidArgumentException("writerId must not be all zero");
    }
    writerId = writerId.clone();
  }

  @Override
  public byte[] writerId() {
    return writerId.clone();
  }

  /** Default options with a fresh random writer id. */
  public static WriterOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** 16 random bytes, never all zero. */
  public static byte[] randomWriterId() {
    byte[] id = new byte[16];
    do {
      RANDOM.nextBytes(id);
    } while (isZero(id));
    return id;
  }

  private static boolean isZero(byte[] id) {
    for (byte b : id) {
      if (b != 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * When the batch being built is cut into a segment: at the first of {@code maxRecords} records,
   * {@code maxBytes} raw record bytes, or {@code maxDelay} after its first record (zero disables
   * the age limit; then only the other limits and explicit cuts cut).
   *
   * @param maxDelay age limit of a batch (default 10 ms)
   * @param maxBytes raw encoded record bytes per batch (default 64 MiB); a larger single record
   *     gets a batch of its own
   * @param maxRecords records per batch (default 16 384)
   */
  public record BatchPolicy(Duration maxDelay, long maxBytes, int maxRecords) {
    public static final BatchPolicy DEFAULT = new BatchPolicy(Duration.ofMillis(10), 64L << 20, 16_384);

    public BatchPolicy {
      Objects.requireNonNull(maxDelay, "maxDelay");
      if (maxDelay.isNegative()) {
        throw new InvalidArgumentException("batch maxDelay must not be negative, was " + maxDelay);
      }
      if (maxBytes < 1) {
        throw new InvalidArgumentException("batch maxBytes must be positive, was " + maxBytes);
      }
      if (maxRecords < 1) {
        throw new InvalidArgumentException("batch maxRecords must be positive, was " + maxRecords);
      }
    }
  }

  /**
   * Bounds segments cut but not yet committed: at most {@code maxPendingSegments} of them, whose
   * worst-case encoded sizes sum to at most {@code maxPendingBytes} (the batch being built counts
   * too). A cut that does not fit waits (or fails, with {@code failWhenFull}). These bytes are also
   * drawn from the log's {@link MemoryBudget}, shared with other writers: beyond the writer's
   * reservation they wait (or fail) for the budget too.
   *
   * @param maxPendingSegments default 4
   * @param maxPendingBytes default 256 MiB
   * @param failWhenFull throw {@link WriterBackpressureException} instead of waiting (default
   *     false: wait, interruptibly)
   * @param maxRecordBytes the largest record this writer accepts, as {@link LogRecord#encodedSize()}
   *     (envelope, headers and value); a larger one throws {@link
   *     RecordExceedsPendingBudgetException}. The writer's guaranteed share of the {@link
   *     MemoryBudget} (its reservation) is one such record plus one block, so a smaller value lets
   *     many partition writers share a small budget. Default {@link #FORMAT_MAX_RECORD_BYTES}, the
   *     largest record the format admits
   */
  public record BackpressurePolicy(int maxPendingSegments, long maxPendingBytes, boolean failWhenFull,
      int maxRecordBytes) {
    /** The largest encoded record the segment format admits (envelope, 256 KiB headers, 4 MiB value). */
    public static final int FORMAT_MAX_RECORD_BYTES = SegmentFormat.RECORD_ENVELOPE_SIZE
        + SegmentFormat.MAX_RECORD_HEADER_BYTES + SegmentFormat.MAX_RECORD_VALUE_LEN;
    public static final BackpressurePolicy DEFAULT = new BackpressurePolicy(4, 256L << 20, false);

    public BackpressurePolicy {
      if (maxPendingSegments < 1) {
        throw new InvalidArgumentException("maxPendingSegments must be positive, was " + maxPendingSegments);
      }
      if (maxPendingBytes < 1) {
        throw new InvalidArgumentException("maxPendingBytes must be positive, was " + maxPendingBytes);
      }
      if (maxRecordBytes < SegmentFormat.RECORD_ENVELOPE_SIZE || maxRecordBytes > FORMAT_MAX_RECORD_BYTES) {
        throw new InvalidArgumentException("maxRecordBytes must be " + SegmentFormat.RECORD_ENVELOPE_SIZE + ".."
            + FORMAT_MAX_RECORD_BYTES + " (an empty record up to the format's largest), was " + maxRecordBytes);
      }
    }

    /** A policy accepting every record the format admits ({@link #FORMAT_MAX_RECORD_BYTES}). */
    public BackpressurePolicy(int maxPendingSegments, long maxPendingBytes, boolean failWhenFull) {
      this(maxPendingSegments, maxPendingBytes, failWhenFull, FORMAT_MAX_RECORD_BYTES);
    }

    /** This policy with another {@link #maxRecordBytes()}. */
    public BackpressurePolicy withMaxRecordBytes(int value) {
      return new BackpressurePolicy(maxPendingSegments, maxPendingBytes, failWhenFull, value);
    }
  }

  /**
   * Lets the batch age limit follow the time a segment takes to persist, for throughput-first
   * writers (the rule of Skippr's S3 write-ahead log). Each batch's age limit, fixed when the
   * batch takes its first record, is
   *
   * <pre>
   * delay = max(min, min(multiplier × persist, max, fill))
   * </pre>
   *
   * <ul>
   *   <li>{@code persist}: a moving average (weight 0.2 for the newest) of each committed segment's
   *       whole persist time, from its cut to its commit: sealing its last block, the upload,
   *       waiting for earlier segments, the head swap. Until the first commit, {@link
   *       BatchPolicy#maxDelay()} stands in for {@code multiplier × persist} (the cold value).
   *   <li>{@code fill}: how long a whole batch ({@link BatchPolicy#maxRecords()} or {@link
   *       BatchPolicy#maxBytes()}, whichever comes first) takes at the append rate seen so far: a
   *       moving average of records and raw bytes per batch over the time between cuts, updated at
   *       each cut (no cost per append). No cap before the first cut.
   *   <li>{@code min} wins over both caps; a batch reaching {@code maxRecords} or {@code maxBytes}
   *       is cut at once, as without adaptive delay, and explicit cuts and flushes cut as always.
   * </ul>
   *
   * <p>The multiplier says how many persist times a batch collects. At 1 (the default) a batch
   * fills while the previous one persists, so about one segment is in flight and a record waits
   * about two persist times: batches grow with the store's latency and uploads seldom queue behind
   * one another. At 4 (Skippr's "about four times") batches and the requests saved grow about
   * fourfold and so does the wait (docs/BENCHMARKS.md, ADAPTIVE: at 50 ms RTT, ×1 halved the
   * requests per GiB of the fixed 10 ms delay at a lower median latency; ×4 saved three quarters and
   * added 150 ms at p99). While disabled, {@link BatchPolicy#maxDelay()} applies as given. It is off
   * by default: with a fast store (persist times of a few milliseconds: memory, a local directory or
   * MinIO) the delay drops below the fixed 10 ms towards {@code min}, and a writer at a steady rate
   * cuts more segments and pays more requests (ADAPTIVE at 0 ms RTT: about 1.7× the requests per
   * GiB at ×1); at 5 ms RTT its median latency is a few ms above the fixed delay's.
   *
   * @param enabled default false
   * @param min lower bound of the delay (default 1 ms)
   * @param max upper bound of the delay (default 250 ms)
   * @param multiplier factor on the persist average (default 1)
   */
  public record AdaptiveDelay(boolean enabled, Duration min, Duration max, double multiplier) {
    public static final AdaptiveDelay DISABLED =
        new AdaptiveDelay(false, Duration.ofMillis(1), Duration.ofMillis(250), 1.0);

    public AdaptiveDelay {
      Objects.requireNonNull(min, "min");
      Objects.requireNonNull(max, "max");
      if (min.isNegative() || max.compareTo(min) < 0) {
        throw new InvalidArgumentException("adaptive delay needs 0 <= min <= max, was " + min + ".." + max);
      }
      if (!(multiplier > 0) || Double.isInfinite(multiplier)) {
        throw new InvalidArgumentException("adaptive delay multiplier must be positive, was " + multiplier);
      }
    }

    /** Enabled with the given bounds and a multiplier of 1 (one segment persisting at a time). */
    public static AdaptiveDelay between(Duration min, Duration max) {
      return new AdaptiveDelay(true, min, max, 1.0);
    }
  }

  /**
   * How segments are laid out, sealed and streamed.
   *
   * <p>Blocks are sealed (compressed and hashed) as they fill, while the batch is still being
   * built, at most {@code sealParallelism} at once on {@code sealExecutor}; sealed blocks stream in
   * order into the segment's upload, which starts with its first block.
   *
   * @param blockBytes raw bytes per block before it is sealed (default 1 MiB, at most 16 MiB)
   * @param codec block compression (default zstd)
   * @param zstdLevel zstd level (default 3)
   * @param hashAlgorithm integrity hash of blocks, index and segment (default XXH64)
   * @param sealExecutor where blocks are sealed and segments uploaded; null means the log's
   *     scheduler for sealing and the log's store I/O threads for uploads (which block on the store)
   * @param sealParallelism how many blocks of this writer may be sealed at once (each seal holds a
   *     zstd context, lent by the log's shared ones for that seal, and up to two blocks of memory); 0
   *     means min(2, available processors)
   */
  public record Pipeline(int blockBytes, Codec codec, int zstdLevel, HashAlgorithm hashAlgorithm,
      @Nullable Executor sealExecutor, int sealParallelism) {
    public static final Pipeline DEFAULT = new Pipeline(SegmentFormat.DEFAULT_TARGET_BLOCK_SIZE,
        Codec.ZSTD, SegmentEncoderOptions.DEFAULT_ZSTD_LEVEL, HashAlgorithm.XXH64, null, 0);
    /** The largest {@code sealParallelism} accepted. */
    public static final int MAX_SEAL_PARALLELISM = 256;

    public Pipeline {
      Objects.requireNonNull(codec, "codec");
      Objects.requireNonNull(hashAlgorithm, "hashAlgorithm");
      if (blockBytes < 1 || blockBytes > SegmentFormat.MAX_RAW_BLOCK_SIZE) {
        throw new InvalidArgumentException("blockBytes must be 1.." + SegmentFormat.MAX_RAW_BLOCK_SIZE
            + ", was " + blockBytes);
      }
      if (zstdLevel < SegmentEncoderOptions.MIN_ZSTD_LEVEL || zstdLevel > SegmentEncoderOptions.MAX_ZSTD_LEVEL) {
        throw new InvalidArgumentException("zstdLevel must be " + SegmentEncoderOptions.MIN_ZSTD_LEVEL + ".."
            + SegmentEncoderOptions.MAX_ZSTD_LEVEL + ", was " + zstdLevel);
      }
      if (sealParallelism < 0 || sealParallelism > MAX_SEAL_PARALLELISM) {
        throw new InvalidArgumentException("sealParallelism must be 0 (default) or 1.." + MAX_SEAL_PARALLELISM
            + ", was " + sealParallelism);
      }
    }

    /** With the default seal parallelism, min(2, available processors). */
    public Pipeline(int blockBytes, Codec codec, int zstdLevel, HashAlgorithm hashAlgorithm,
        @Nullable Executor sealExecutor) {
      this(blockBytes, codec, zstdLevel, hashAlgorithm, sealExecutor, 0);
    }

    public Pipeline withSealParallelism(int value) {
      return new Pipeline(blockBytes, codec, zstdLevel, hashAlgorithm, sealExecutor, value);
    }
  }

  /**
   * How long background work keeps retrying before the writer fails terminally with {@link
   * WriterDeadlineExceededException}. Both are elapsed time on the log's {@link
   * dev.objlog.store.Ticker} (a wall-clock step moves neither), checked after each failed try, so
   * the writer may overrun them by one backoff (at most 1 s) plus one whole try: for an upload, the
   * segment's re-upload; for a commit, its page writes, the head swap and one head read-back, each
   * under the adapter's retry policy. They are the writer's only retry budgets above the store
   * adapter's per-request retries.
   *
   * @param segmentFinalize sealing and uploading one segment, retries included, counted from its
   *     cut (default 5 min)
   * @param catalogPublish committing one group to the catalog, retries included, counted from the
   *     group's first try (default 30 s)
   */
  public record Timeouts(Duration segmentFinalize, Duration catalogPublish) {
    public static final Timeouts DEFAULT = new Timeouts(Duration.ofMinutes(5), Duration.ofSeconds(30));

    public Timeouts {
      Objects.requireNonNull(segmentFinalize, "segmentFinalize");
      Objects.requireNonNull(catalogPublish, "catalogPublish");
      if (segmentFinalize.isNegative() || segmentFinalize.isZero()
          || catalogPublish.isNegative() || catalogPublish.isZero()) {
        throw new InvalidArgumentException("writer timeouts must be positive, were "
            + segmentFinalize + " and " + catalogPublish);
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WriterOptions w
        && java.util.Arrays.equals(writerId, w.writerId)
        && batch.equals(w.batch)
        && backpressure.equals(w.backpressure)
        && adaptiveDelay.equals(w.adaptiveDelay)
        && pipeline.equals(w.pipeline)
        && timeouts.equals(w.timeouts);
  }

  @Override
  public int hashCode() {
    return Objects.hash(java.util.Arrays.hashCode(writerId), batch, backpressure, adaptiveDelay, pipeline,
        timeouts);
  }

  @Override
  public String toString() {
    return "WriterOptions[writerId=" + java.util.HexFormat.of().formatHex(writerId) + ", batch=" + batch
        + ", backpressure=" + backpressure + ", adaptiveDelay=" + adaptiveDelay + ", pipeline="
        + pipeline + ", timeouts=" + timeouts + "]";
  }

  /** Builds {@link WriterOptions}. Not thread-safe. */
  public static final class Builder {
    private byte @Nullable [] writerId;
    private BatchPolicy batch = BatchPolicy.DEFAULT;
    private BackpressurePolicy backpressure = BackpressurePolicy.DEFAULT;
    private AdaptiveDelay adaptiveDelay = AdaptiveDelay.DISABLED;
    private Pipeline pipeline = Pipeline.DEFAULT;
    private Timeouts timeouts = Timeouts.DEFAULT;

    private Builder() {}

    /** A fixed writer id (default: random per {@link #build()}). */
    public Builder writerId(byte[] value) {
      writerId = value.clone();
      return this;
    }

    public Builder batch(BatchPolicy value) {
      batch = value;
      return this;
    }

    /** Shorthand for {@link #batch(BatchPolicy)}. */
    public Builder batch(Duration maxDelay, long maxBytes, int maxRecords) {
      return batch(new BatchPolicy(maxDelay, maxBytes, maxRecords));
    }

    public Builder backpressure(BackpressurePolicy value) {
      backpressure = value;
      return this;
    }

    /** Shorthand for a waiting {@link BackpressurePolicy}. */
    public Builder backpressure(int maxPendingSegments, long maxPendingBytes) {
      return backpressure(new BackpressurePolicy(maxPendingSegments, maxPendingBytes, false));
    }

    public Builder adaptiveDelay(AdaptiveDelay value) {
      adaptiveDelay = value;
      return this;
    }

    public Builder pipeline(Pipeline value) {
      pipeline = value;
      return this;
    }

    public Builder timeouts(Timeouts value) {
      timeouts = value;
      return this;
    }

    public WriterOptions build() {
      byte[] id = writerId != null ? writerId : randomWriterId();
      return new WriterOptions(id, batch, backpressure, adaptiveDelay, pipeline, timeouts);
    }
  }
}
