package dev.objlog.format.segment;

import dev.objlog.format.HashAlgorithm;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Builds segments for tests with the real encoder. */
final class TestSegments {
  static final byte[] UUID = bytes16(0x10);
  static final byte[] TAG = bytes16(0x40);

  private TestSegments() {}

  static byte[] bytes16(int start) {
    byte[] b = new byte[16];
    for (int i = 0; i < 16; i++) {
      b[i] = (byte) (start + i);
    }
    return b;
  }

  static SegmentEncoderOptions options(Codec codec, HashAlgorithm hash, int targetBlockSize) {
    return new SegmentEncoderOptions(3, codec, hash, 1, targetBlockSize, 1_700_000_000_000L, UUID, TAG);
  }

  record Encoded(byte[] bytes, SegmentTrailer trailer) {}

  static Encoded encode(SegmentEncoderOptions options, List<SegmentRecord> records) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (SegmentEncoder encoder = new SegmentEncoder(options, out::write)) {
      records.forEach(encoder::append);
      SegmentTrailer trailer = encoder.finish();
      return new Encoded(out.toByteArray(), trailer);
    }
  }

  /** Records with headers and compressible values whose encoded sizes total about {@code bytes}. */
  static List<SegmentRecord> records(long seed, long baseLsn, int bytes) {
    SplittableRandom random = new SplittableRandom(seed);
    List<SegmentRecord> records = new ArrayList<>();
    long ts = 1_700_000_000_000L;
    int total = 0;
    for (long lsn = baseLsn; total < bytes; lsn++) {
      byte[] value = new byte[random.nextInt(0, 600)];
      for (int i = 0; i < value.length; i++) {
        value[i] = (byte) ("abcdefgh".charAt(random.nextInt(8)));
      }
      List<RecordHeader> headers = random.nextInt(3) == 0
          ? List.of()
          : List.of(new RecordHeader("k".getBytes(), ("v" + lsn).getBytes()),
              new RecordHeader(new byte[] {0, (byte) 0xff}, new byte[0]));
      ts += random.nextInt(3);
      SegmentRecord r = new SegmentRecord(lsn, ts, headers, value);
      records.add(r);
      total += (int) SegmentEncoder.encodedSize(r);
    }
    return records;
  }
}
