package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every input rule of the encoder (FORMAT.md §1.2, §1.10), and that a rejection changes nothing. */
class SegmentEncoderInputTests {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private SegmentEncoder encoder() {
    return new SegmentEncoder(TestSegments.options(Codec.NONE, HashAlgorithm.CRC32C, 1024), out::write);
  }

  private static SegmentRecord rec(long lsn, long ts) {
    return new SegmentRecord(lsn, ts, new byte[] {1});
  }

  private static SegmentRecord withHeaders(List<RecordHeader> headers) {
    return new SegmentRecord(5, 0, headers, new byte[0]);
  }

  /** The rejected record left no trace: the encoder still takes the right next record. */
  private void assertRejectedAndStillUsable(SegmentEncoder e, SegmentRecord bad, String message,
      SegmentRecord next) {
    long written = e.bytesWritten();
    long count = e.recordCount();
    assertThatThrownBy(() -> e.append(bad)).isExactlyInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining(message);
    assertThat(e.bytesWritten()).isEqualTo(written);
    assertThat(e.recordCount()).isEqualTo(count);
    e.append(next);
    e.finish();
  }

  @Test
  void lsnsMustBeContiguous() {
    for (long bad : new long[] {13, 11, 10, 0, -1L}) {
      try (SegmentEncoder e = encoder()) {
        e.append(rec(10, 0));
        e.append(rec(11, 0));
        assertRejectedAndStillUsable(e, rec(bad, 0), "non-contiguous LSN", rec(12, 0));
      }
    }
  }

  @Test
  void timestampsMustNotDecrease() {
    try (SegmentEncoder e = encoder()) {
      e.append(rec(1, 50));
      e.append(rec(2, 50));
      assertRejectedAndStillUsable(e, rec(3, 49), "precedes the previous record", rec(3, 50));
    }
  }

  @Test
  void theReservedLsnIsNeverAssigned() {
    try (SegmentEncoder e = encoder()) {
      assertRejectedAndStillUsable(e, rec(SegmentFormat.RESERVED_LSN, 0), "reserved",
          rec(SegmentFormat.MAX_RECORD_LSN, 0));
    }
  }

  @Test
  void nothingFollowsTheLargestRecordLsn() {
    try (SegmentEncoder e = encoder()) {
      e.append(rec(SegmentFormat.MAX_RECORD_LSN - 1, 0));
      e.append(rec(SegmentFormat.MAX_RECORD_LSN, 0));
      assertThatThrownBy(() -> e.append(rec(SegmentFormat.RESERVED_LSN, 0)))
          .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("exhausted");
      SegmentTrailer t = e.finish();
      assertThat(t.lastLsn()).isEqualTo(SegmentFormat.MAX_RECORD_LSN);
    }
  }

  @Test
  void atMost64Headers() {
    RecordHeader h = new RecordHeader(new byte[] {'k'}, new byte[0]);
    try (SegmentEncoder e = encoder()) {
      assertRejectedAndStillUsable(e, withHeaders(Collections.nCopies(65, h)), "65 headers",
          withHeaders(Collections.nCopies(64, h)));
    }
  }

  @Test
  void headerKeysAreOneTo1024Bytes() {
    try (SegmentEncoder e = encoder()) {
      assertThatThrownBy(() -> e.append(withHeaders(List.of(new RecordHeader(new byte[0], new byte[1])))))
          .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("must not be empty");
      assertRejectedAndStillUsable(e, withHeaders(List.of(new RecordHeader(new byte[1025], new byte[0]))),
          "1025 bytes", withHeaders(List.of(new RecordHeader(new byte[1024], new byte[0]))));
    }
  }

  @Test
  void headerValuesAreAtMost65535Bytes() {
    try (SegmentEncoder e = encoder()) {
      assertRejectedAndStillUsable(e, withHeaders(List.of(new RecordHeader(new byte[1], new byte[65_536]))),
          "65536 bytes", withHeaders(List.of(new RecordHeader(new byte[1], new byte[65_535]))));
    }
  }

  @Test
  void encodedHeadersAreAtMost256KiB() {
    // 2 + 4 × (4 + 1 + 65 535) = 262 162 > 262 144, while 2 + 4 × (4 + 1 + 65 530) = 262 142 fits.
    List<RecordHeader> tooMany = new ArrayList<>();
    List<RecordHeader> fits = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      tooMany.add(new RecordHeader(new byte[1], new byte[65_535]));
      fits.add(new RecordHeader(new byte[1], new byte[65_530]));
    }
    try (SegmentEncoder e = encoder()) {
      assertRejectedAndStillUsable(e, withHeaders(tooMany), "262162 bytes exceed", withHeaders(fits));
    }
  }

  @Test
  void valuesAreAtMost4MiB() {
    try (SegmentEncoder e = encoder()) {
      assertRejectedAndStillUsable(e, new SegmentRecord(1, 0, new byte[SegmentFormat.MAX_RECORD_VALUE_LEN + 1]),
          "4194305 bytes", new SegmentRecord(1, 0, new byte[SegmentFormat.MAX_RECORD_VALUE_LEN]));
    }
    SegmentReader r = SegmentReader.open(RangeReader.ofBytes(out.toByteArray()), out.size());
    assertThat(r.readBlock(0).records().get(0).value()).hasSize(SegmentFormat.MAX_RECORD_VALUE_LEN);
  }

  @Test
  void emptySegmentsAreNotAllowed() {
    try (SegmentEncoder e = encoder()) {
      assertThatThrownBy(e::finish).isExactlyInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("at least one record");
    }
    assertThat(out.size()).isZero();
  }

  @Test
  void aFinishedOrClosedEncoderRefusesMore() {
    SegmentEncoder e = encoder();
    e.append(rec(1, 0));
    e.finish();
    assertThatThrownBy(() -> e.append(rec(2, 0))).isExactlyInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("finished");
    assertThatThrownBy(e::finish).isExactlyInstanceOf(InvalidArgumentException.class);
    e.close();
    e.close();
    assertThatThrownBy(() -> e.append(rec(2, 0))).hasMessageContaining("closed");
  }

  @Test
  void aFailingSinkFailsTheEncoder() {
    RuntimeException boom = new IllegalStateException("upload lost");
    SegmentEncoder e = new SegmentEncoder(TestSegments.options(Codec.ZSTD, HashAlgorithm.XXH64, 1),
        (b, off, len) -> {
          throw boom;
        });
    assertThatThrownBy(() -> e.append(rec(1, 0))).isSameAs(boom);
    assertThatThrownBy(() -> e.append(rec(1, 0))).isExactlyInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("failed");
    e.close();
  }

  @Test
  void optionsAreValidated() {
    byte[] id = new byte[16];
    assertThatThrownBy(() -> new SegmentEncoderOptions(-1, Codec.NONE, HashAlgorithm.XXH64, 3, 80, 0, id, id))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("partition");
    assertThatThrownBy(() -> new SegmentEncoderOptions(1L << 32, Codec.NONE, HashAlgorithm.XXH64, 3, 80, 0, id, id))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("partition");
    assertThatThrownBy(() -> new SegmentEncoderOptions(0, Codec.NONE, HashAlgorithm.XXH64, 3, 0, 0, id, id))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("target block size");
    assertThatThrownBy(() -> new SegmentEncoderOptions(0, Codec.NONE, HashAlgorithm.XXH64, 3,
        SegmentFormat.MAX_RAW_BLOCK_SIZE + 1, 0, id, id))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("target block size");
    assertThatThrownBy(() -> new SegmentEncoderOptions(0, Codec.ZSTD, HashAlgorithm.XXH64, 23, 80, 0, id, id))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("zstd level");
    assertThatThrownBy(() -> new SegmentEncoderOptions(0, Codec.NONE, HashAlgorithm.XXH64, 3, 80, 0, new byte[15], id))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("uuid");
    assertThatThrownBy(() -> new SegmentEncoderOptions(0, Codec.NONE, HashAlgorithm.XXH64, 3, 80, 0, id, new byte[17]))
        .isExactlyInstanceOf(InvalidArgumentException.class).hasMessageContaining("tag");
  }

  @Test
  void aRecordLargerThanTheTargetGetsABlockOfItsOwn() {
    try (SegmentEncoder e = new SegmentEncoder(TestSegments.options(Codec.NONE, HashAlgorithm.XXH64, 100), out::write)) {
      e.append(new SegmentRecord(1, 0, new byte[10]));
      e.append(new SegmentRecord(2, 0, new byte[500]));
      e.append(new SegmentRecord(3, 0, new byte[10]));
      e.append(new SegmentRecord(4, 0, new byte[10]));
      e.finish();
    }
    SegmentReader r = SegmentReader.open(RangeReader.ofBytes(out.toByteArray()), out.size());
    assertThat(r.blocks()).extracting(BlockInfo::rawSize).containsExactly(26L, 516L, 52L);
  }

  @Test
  void bytesLeaveTheEncoderAsBlocksSealNotAtFinish() {
    try (SegmentEncoder e = new SegmentEncoder(TestSegments.options(Codec.ZSTD, HashAlgorithm.XXH64, 100), out::write)) {
      e.append(new SegmentRecord(1, 0, new byte[90]));
      assertThat(out.size()).as("file preamble goes out with the first record").isEqualTo(64);
      e.append(new SegmentRecord(2, 0, new byte[90]));
      assertThat(out.size()).as("first block sealed").isGreaterThan(128);
      assertThat(e.bytesWritten()).isEqualTo(out.size());
      assertThat(e.openBlockBytes()).isEqualTo(106);
      long before = out.size();
      long worst = e.worstCaseFinishedSize();
      SegmentTrailer t = e.finish();
      assertThat(t.totalSize()).isEqualTo(out.size()).isLessThanOrEqualTo(worst).isGreaterThan(before);
    }
  }

  @Test
  void worstCaseSizeRejectsNonsense() {
    assertThatThrownBy(() -> SegmentEncoder.worstCaseSegmentSize(-1, 0, 1, Codec.NONE))
        .isExactlyInstanceOf(InvalidArgumentException.class);
    assertThat(SegmentEncoder.encodedSize(withHeaders(List.of(new RecordHeader(new byte[3], new byte[4])))))
        .isEqualTo(16 + 2 + 4 + 3 + 4);
  }
}
