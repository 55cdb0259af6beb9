package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.WriterDeadlineExceededException;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.SegmentEncoder;
import dev.objlog.format.segment.SegmentRecord;
import dev.objlog.store.TransientStoreException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The segment pipeline on its own: blocks sealed in parallel reach the upload in order and the
 * object is byte for byte what the one-shot encoder writes; a failed upload restarts the whole
 * segment under the same key; the finalize deadline is elapsed time from the cut; an abandoned
 * segment keeps nothing.
 */
class SegmentPipelineTests {
  /** Blocks of 256 bytes, sealed two at a time, so a segment of 40 records has many blocks. */
  private static WriterOptions.Builder smallBlocks() {
    return manualCuts().pipeline(new WriterOptions.Pipeline(256, Codec.ZSTD, 1, HashAlgorithm.XXH64, null, 2));
  }

  private static List<String> values(int n) {
    List<String> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      values.add("value-" + i + "-" + "y".repeat(i % 31));
    }
    return values;
  }

  private static byte[] encoded(Segment s, List<String> values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (SegmentEncoder encoder = new SegmentEncoder(s.encoderOptions, out::write)) {
      for (int i = 0; i < values.size(); i++) {
        encoder.append(new SegmentRecord(s.baseLsn + i, i + 1, values.get(i).getBytes(StandardCharsets.UTF_8)));
      }
      encoder.finish();
    }
    return out.toByteArray();
  }

  @Test
  void aSegmentsBlocksReachTheUploadInOrderAndTheObjectIsWhatTheEncoderWrites() {
    try (WriterParts parts = new WriterParts(smallBlocks().build())) {
      parts.autoPublish = false;
      List<String> values = values(40);
      Segment s = parts.cutSegment(0, values);

      parts.runAll();

      assertThat(parts.failures).isEmpty();
      assertThat(parts.ready).containsExactly(s);
      assertThat(s.stage).isEqualTo(Segment.Stage.READY);
      assertThat(s.entry.blockCount()).as("blocks").isGreaterThan(4);
      assertThat(parts.store.get(s.key).bytes()).as("uploaded bytes").isEqualTo(encoded(s, values));
      assertThat(parts.pipeline.retainedBytes()).as("blocks released after the upload").isZero();
    }
  }

  @Test
  void aTransientUploadFailureRestartsTheWholeSegmentUnderTheSameKeyAfterABackoff() {
    try (WriterParts parts = new WriterParts(smallBlocks().build())) {
      parts.autoPublish = false;
      parts.store.onUploadStart(call -> {
        if (call == 1) {
          throw new TransientStoreException("upload " + call + " refused by the test", false);
        }
      });
      List<String> values = values(40);
      Segment s = parts.cutSegment(0, values);

      parts.runAll();

      assertThat(parts.failures).isEmpty();
      assertThat(parts.store.uploadCalls.get()).as("upload starts").isEqualTo(2);
      assertThat(s.uploadAttempts).isEqualTo(2);
      assertThat(parts.ready).containsExactly(s);
      assertThat(parts.store.get(s.key).bytes()).as("the restarted upload's bytes").isEqualTo(encoded(s, values));
      assertThat(parts.pipeline.retainedBytes()).isZero();
    }
  }

  @Test
  void anUploadStillFailingPastSegmentFinalizeAfterTheCutFailsWithTheTypedDeadline() {
    Duration finalize = Duration.ofMinutes(1);
    WriterOptions options = smallBlocks().timeouts(new WriterOptions.Timeouts(finalize, Duration.ofSeconds(30))).build();
    try (WriterParts parts = new WriterParts(options)) {
      parts.autoPublish = false;
      parts.store.onUploadStart(call -> {
        parts.ticker.advance(Duration.ofSeconds(25));
        throw new TransientStoreException("upload " + call + " refused by the test", false);
      });
      parts.cutSegment(0, values(3));

      parts.runAll();

      assertThat(parts.failures).singleElement().isInstanceOfSatisfying(WriterDeadlineExceededException.class, late -> {
        assertThat(late.deadline()).isEqualTo(WriterDeadlineExceededException.Deadline.SEGMENT_FINALIZE);
        assertThat(late.limit()).isEqualTo(finalize);
        assertThat(late.elapsed()).as("three refused starts of 25 s each").isEqualTo(Duration.ofSeconds(75));
        assertThat(late).hasRootCauseInstanceOf(TransientStoreException.class);
      });
      assertThat(parts.store.uploadCalls.get()).isEqualTo(3);
      assertThat(parts.ready).isEmpty();
    }
  }

  @Test
  void anAbandonedSegmentIsNeverUploadedAndKeepsNoBlocks() {
    try (WriterParts parts = new WriterParts(smallBlocks().build())) {
      Segment s = parts.cutSegment(0, values(40));
      assertThat(parts.pipeline.retainedBytes()).as("raw blocks waiting to be sealed").isPositive();

      parts.pipeline.abandon(s);
      parts.runAll();

      assertThat(parts.pipeline.retainedBytes()).isZero();
      assertThat(parts.store.uploadCalls.get()).as("uploads started").isZero();
      assertThat(parts.ready).isEmpty();
      assertThat(parts.failures).isEmpty();
    }
  }
}
