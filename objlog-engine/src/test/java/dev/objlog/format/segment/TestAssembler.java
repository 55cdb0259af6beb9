package dev.objlog.format.segment;

import dev.objlog.format.HashAlgorithm;
import java.io.ByteArrayOutputStream;
import java.util.List;

/**
 * Lays out a segment around stored block bytes given verbatim (e.g. hand-made zstd frames), with
 * every hash and index field consistent, so that only the stored bytes themselves are under test.
 * Each block holds one record at timestamp 100.
 */
final class TestAssembler {
  private TestAssembler() {}

  static byte[] assemble(Codec codec, HashAlgorithm hash, long base, List<byte[]> stored, List<Integer> rawSizes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] p = new byte[64];
    Layout.writeFilePreamble(p, new FilePreamble(3, codec, hash, 1, base, TestSegments.UUID, TestSegments.TAG));
    out.writeBytes(p);
    byte[] index = new byte[64 + 64 * stored.size()];
    for (int i = 0; i < stored.size(); i++) {
      byte[] s = stored.get(i);
      BlockInfo info = new BlockInfo(out.size(), s.length, rawSizes.get(i), 1, base + i, 100, 100,
          hash.hash(s, 0, s.length));
      byte[] bp = new byte[64];
      Layout.writeBlockPreamble(bp, 0, info);
      Layout.writeIndexEntry(index, 64 + 64 * i, info);
      out.writeBytes(bp);
      out.writeBytes(s);
    }
    long indexOffset = out.size();
    Layout.writeIndexPreamble(index, 0, stored.size(), hash.hash(index, 64, index.length - 64));
    out.writeBytes(index);
    byte[] body = out.toByteArray();
    SegmentTrailer t = new SegmentTrailer(3, codec, hash, 1, base, base + stored.size() - 1, 100, 100,
        stored.size(), stored.size(), indexOffset, index.length, body.length + 192L, 0,
        TestSegments.UUID, TestSegments.TAG, hash.hash(body, 0, body.length), 0);
    byte[] trailer = new byte[192];
    Layout.writeTrailer(trailer, t);
    out.writeBytes(trailer);
    return out.toByteArray();
  }
}
