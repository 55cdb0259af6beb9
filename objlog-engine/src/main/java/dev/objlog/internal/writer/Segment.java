package dev.objlog.internal.writer;

import dev.objlog.PartitionHead;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.segment.RawBlockBuilder;
import dev.objlog.format.segment.SealedBlock;
import dev.objlog.format.segment.SegmentAssembler;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.store.ObjectUpload;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;

/**
 * One batch of a writer: being built while it is the batcher's active batch, then a cut segment
 * that moves through the stages of {@link Stage} (the package comment draws the model) until it is
 * committed or abandoned.
 *
 * <p>Thread-safety: the batch fields and {@link #stage} are guarded by the writer lock; the upload
 * fields by this segment's monitor (taken after the writer lock or alone, never the other way
 * round); the futures are thread-safe.
 */
final class Segment {
  /** Where a cut segment is (see the package comment for the transitions). */
  enum Stage {
    /** Cut; blocks are being sealed and streamed into its upload. */
    SEALING,
    /** Every block written; the index and trailer are written and the upload is completing. */
    UPLOADING,
    /** The object is in the bucket; waiting for the publisher. */
    READY,
    /** In the group the publisher is committing. */
    PUBLISHING,
    /** In the catalog; its futures completed with the head that committed it. */
    COMMITTED,
    /** Dropped by a terminal writer failure; its futures failed with the cause. */
    ABANDONED
  }

  final long baseLsn;
  final byte[] uuid;
  final String key;
  final SegmentEncoderOptions encoderOptions;
  /** Guarded by the writer lock; used while the batch is active and at its cut. */
  final RawBlockBuilder builder;
  final CompletableFuture<PartitionHead> committed = new CompletableFuture<>();
  /**
   * Completed like {@code committed}, but only after it: {@code committed} completes the copies
   * handed to appenders synchronously, so whoever waits on this one (flush, close) wakes only once
   * every earlier append's future is complete. (Copies fire in reverse order of creation; a flush
   * waiting on a copy of {@code committed} could wake before an earlier append's copy completed.)
   */
  final CompletableFuture<PartitionHead> settled = new CompletableFuture<>();

  // Guarded by this segment's monitor.
  /** Sealed blocks by block index (null: not sealed yet); kept until the upload completes. */
  final ArrayList<@Nullable SealedBlock> sealed = new ArrayList<>();
  /** Blocks in the segment, known at the cut; -1 before. */
  long blockTotal = -1;
  /** A drainer is running (it alone touches {@code upload}, {@code assembler}, {@code emitted}). */
  boolean draining;
  /** A failed upload waits for its backoff; the scheduled retry restarts the drain. */
  boolean backingOff;
  /** The writer dropped this segment: stop, abort the upload, keep nothing. */
  boolean abandoned;
  /** Uploaded: the blocks are released. */
  boolean uploaded;
  @Nullable ObjectUpload upload;
  @Nullable SegmentAssembler assembler;
  int emitted;

  // Guarded by the writer lock.
  /** Ticker reading when the batch took its first record. */
  final long firstAcceptedNanos;
  long records;
  long rawBytes;
  long estimate;
  boolean cutWanted;
  @Nullable ScheduledFuture<?> ageTimer;
  // after the cut
  Stage stage = Stage.SEALING;
  /** Whether the batch was cut; {@code cutAtNanos} is its ticker reading then. */
  boolean isCut;
  long cutAtNanos;
  // Written by the drainer before the segment becomes READY; read by the publisher after.
  @Nullable LeafEntry entry;
  long size;
  int uploadAttempts;

  Segment(long baseLsn, byte[] uuid, String key, SegmentEncoderOptions encoderOptions,
      long firstAcceptedNanos) {
    this.baseLsn = baseLsn;
    this.uuid = uuid;
    this.key = key;
    this.encoderOptions = encoderOptions;
    this.builder = new RawBlockBuilder(encoderOptions.targetBlockSize());
    this.firstAcceptedNanos = firstAcceptedNanos;
  }

  void complete(PartitionHead head) {
    committed.complete(head);
    settled.complete(head);
  }

  void completeExceptionally(Throwable cause) {
    committed.completeExceptionally(cause);
    settled.completeExceptionally(cause);
  }

  /** The whole segment as uploaded, re-assembled from the retained blocks (for a key clash). */
  synchronized byte[] bytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.toIntExact(size));
    SegmentAssembler a = new SegmentAssembler(encoderOptions, out::write);
    for (SealedBlock b : sealed) {
      a.add(Objects.requireNonNull(b, "sealed block"));
    }
    a.finish();
    return out.toByteArray();
  }

  /** Bytes of the sealed blocks held. */
  long sealedBytes() {
    long n = 0;
    for (SealedBlock b : sealed) {
      if (b != null) {
        n += b.length();
      }
    }
    return n;
  }

  @Override
  public String toString() {
    return "segment " + key;
  }
}
