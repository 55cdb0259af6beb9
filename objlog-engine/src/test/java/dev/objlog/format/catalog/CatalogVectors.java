package dev.objlog.format.catalog;

import dev.objlog.format.HashAlgorithm;
import java.util.Arrays;
import java.util.List;

/**
 * The five catalog conformance objects of FORMAT.md §4.2, built from the exact generator inputs
 * of the reference implementation. Shared by the generator and the tests.
 */
final class CatalogVectors {
  static final int PARTITION = 7;
  static final int LIMIT = 4;
  static final Key256 STREAM_KEY = key(0xa1);
  static final Key256 DATA_ROOT_KEY = key(0xc1);
  static final Id128 WRITER_ID = id(0xb1);
  static final CatalogIdentity IDENTITY = new CatalogIdentity(PARTITION, STREAM_KEY, DATA_ROOT_KEY);

  /** One pinned object: the name (file stem), kind and encoded bytes. */
  record Vector(String name, String kind, HashAlgorithm hashAlgorithm, byte[] bytes) {
    String file() {
      return name + ".plc";
    }

    boolean isPage() {
      return !kind.equals("head");
    }
  }

  private CatalogVectors() {}

  static List<Vector> all() {
    return List.of(
        head("empty-head-crc32c", emptyHead()),
        head("populated-head-xxh64", populatedHead()),
        head("fully-retained-head-xxh64", fullyRetainedHead()),
        page("leaf-page-xxh64", "leaf_page", leafPage()),
        page("index-page-crc32c", "index_page", indexPage()));
  }

  private static Vector head(String name, Head head) {
    return new Vector(name, "head", head.hashAlgorithm(), CatalogCodec.encodeHead(head));
  }

  private static Vector page(String name, String kind, CatalogPage page) {
    byte[] bytes = CatalogCodec.encodePage(page).bytes();
    return new Vector(name, kind, page.header().hashAlgorithm(), bytes);
  }

  static Head emptyHead() {
    return Head.builder()
        .partition(PARTITION)
        .hashAlgorithm(HashAlgorithm.CRC32C)
        .leafLimit(LIMIT)
        .indexLimit(LIMIT)
        .streamKey(STREAM_KEY)
        .dataRootKey(DATA_ROOT_KEY)
        .build();
  }

  static Head populatedHead() {
    LeafEntry active = leaf(2, 3, 101, 104, 8, 0x22);
    return Head.builder()
        .partition(PARTITION)
        .hashAlgorithm(HashAlgorithm.XXH64)
        .leafLimit(LIMIT)
        .indexLimit(LIMIT)
        .nextLsn(4)
        .oldestLsn(0)
        .writerEpoch(8)
        .generation(9)
        .segmentCount(2)
        .reachableSegmentCount(2)
        .writerId(WRITER_ID)
        .streamKey(STREAM_KEY)
        .dataRootKey(DATA_ROOT_KEY)
        .lastSegment(active)
        .active(List.of(active))
        .sections(List.of(List.of(ref(0, 0, 1, 100, 101, 7, 1, 0x31))))
        .build();
  }

  static Head fullyRetainedHead() {
    return Head.builder()
        .partition(PARTITION)
        .hashAlgorithm(HashAlgorithm.XXH64)
        .leafLimit(LIMIT)
        .indexLimit(LIMIT)
        .nextLsn(4)
        .oldestLsn(4)
        .appliedRetentionLsn(4)
        .appliedRetentionVersion(1)
        .writerEpoch(8)
        .generation(10)
        .segmentCount(2)
        .reachableSegmentCount(0)
        .writerId(WRITER_ID)
        .streamKey(STREAM_KEY)
        .dataRootKey(DATA_ROOT_KEY)
        .lastSegment(leaf(2, 3, 101, 104, 8, 0x22))
        .build();
  }

  static LeafPage leafPage() {
    PageHeader header =
        new PageHeader(PARTITION, 0, HashAlgorithm.XXH64, 0, 3, 100, 104, 9, 8, STREAM_KEY, 2);
    return new LeafPage(
        header, List.of(leaf(0, 1, 100, 101, 7, 0x11), leaf(2, 3, 101, 104, 8, 0x22)));
  }

  static IndexPage indexPage() {
    PageHeader header =
        new PageHeader(PARTITION, 1, HashAlgorithm.CRC32C, 0, 8, 100, 110, 9, 8, STREAM_KEY, 5);
    return new IndexPage(
        header,
        List.of(ref(0, 0, 3, 100, 104, 7, 2, 0x31), ref(0, 4, 8, 104, 110, 8, 3, 0x41)));
  }

  /** The reference implementation's leaf-entry helper. */
  static LeafEntry leaf(long base, long last, long minTs, long maxTs, long epoch, int marker) {
    return new LeafEntry(
        base,
        last,
        minTs,
        maxTs,
        last - base + 1,
        1,
        4096 + base,
        2048,
        128,
        CatalogFormat.CODEC_ZSTD,
        HashAlgorithm.XXH64.id(),
        0x0102030405060708L + base,
        0x1112131415161718L + base,
        epoch,
        id(marker),
        id((int) epoch));
  }

  /** The reference implementation's index-entry helper. */
  static IndexEntry ref(
      int level, long lo, long hi, long minTs, long maxTs, long generation, long segments, int marker) {
    return new IndexEntry(level, segments, lo, hi, minTs, maxTs, generation, id(marker), segments);
  }

  static Id128 id(int fill) {
    byte[] bytes = new byte[Id128.SIZE];
    Arrays.fill(bytes, (byte) fill);
    return Id128.of(bytes);
  }

  static Key256 key(int fill) {
    byte[] bytes = new byte[Key256.SIZE];
    Arrays.fill(bytes, (byte) fill);
    return Key256.of(bytes);
  }
}
