package dev.objlog.format.segment;

import dev.objlog.format.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Edits a valid segment and recomputes the hashes that cover the edit, so that a test reaches the
 * one structural rule it is about instead of a hash check. Positions come from the unedited
 * segment's trailer.
 */
final class SegmentSurgery {
  final byte[] bytes;
  final ByteBuffer buf;
  final HashAlgorithm hash;
  final int indexOffset;
  final int indexLength;
  final int trailerOffset;
  final List<BlockInfo> blocks;

  SegmentSurgery(byte[] valid) {
    this.bytes = valid.clone();
    this.buf = ByteBuffer.wrap(bytes);
    SegmentReader r = SegmentReader.open(RangeReader.ofBytes(valid), valid.length);
    this.hash = r.trailer().hashAlgorithm();
    this.indexOffset = (int) r.trailer().blockIndexOffset();
    this.indexLength = (int) r.trailer().blockIndexLength();
    this.trailerOffset = valid.length - SegmentFormat.TRAILER_SIZE;
    this.blocks = r.blocks();
  }

  int block(int i) {
    return (int) blocks.get(i).offset();
  }

  int entry(int i) {
    return indexOffset + 64 + 64 * i;
  }

  /** Start of record {@code k}'s envelope inside block {@code i} (codec none). */
  int record(int i, int k) {
    int pos = block(i) + 64;
    for (int j = 0; j < k; j++) {
      pos += 16 + buf.getInt(pos + 8) + buf.getInt(pos + 12);
    }
    return pos;
  }

  /** Re-hashes block {@code i}'s stored bytes into its preamble and index entry. */
  SegmentSurgery resealBlock(int i) {
    int at = block(i);
    int stored = buf.getInt(at + 8);
    long h = hash.hash(bytes, at + 64, stored);
    buf.putLong(at + 48, h);
    buf.putLong(entry(i) + 48, h);
    return this;
  }

  SegmentSurgery resealIndex() {
    buf.putLong(indexOffset + 16, hash.hash(bytes, indexOffset + 64, indexLength - 64));
    return this;
  }

  SegmentSurgery resealTrailer() {
    buf.putLong(trailerOffset + 128, hash.hash(bytes, 0, indexOffset + indexLength));
    resealTrailerHashOnly();
    return this;
  }

  SegmentSurgery resealTrailerHashOnly() {
    byte[] t = new byte[SegmentFormat.TRAILER_SIZE];
    System.arraycopy(bytes, trailerOffset, t, 0, t.length);
    buf.putLong(trailerOffset + 136, Layout.trailerHash(t, hash));
    return this;
  }

  /** Reseals everything: blocks, index, segment hash and trailer hash. */
  SegmentSurgery resealAll() {
    for (int i = 0; i < blocks.size(); i++) {
      resealBlock(i);
    }
    return resealIndex().resealTrailer();
  }
}
