package dev.objlog.internal.catalog;

import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.CatalogFormat;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.Key256;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.key.StreamIds;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Shared fixtures of the catalog engine tests: stores, keys, options and segment entries. */
final class CatalogTestSupport {
  private CatalogTestSupport() {}

  static final String STREAM = "tests/catalog-engine";
  static final int PARTITION = 7;
  static final KeyPrefixes PREFIXES = KeyPrefixes.resolve("t");

  /** The two stores every scenario runs on. */
  enum StoreKind {
    MEMORY,
    FILESYSTEM;

    ObjectStore open(Path dir) {
      return this == MEMORY ? new MemoryObjectStore() : FilesystemObjectStore.open(dir.resolve("bucket"));
    }
  }

  static PartitionKeys keys() {
    return PartitionKeys.of(PREFIXES, STREAM, PARTITION);
  }

  static CatalogIdentity identity() {
    return new CatalogIdentity(
        PARTITION, Key256.of(StreamIds.streamKey(STREAM)), Key256.of(PREFIXES.dataRootKey()));
  }

  /** Options with the given fan-out and no real sleeping. */
  static CatalogOptions options(int leafLimit, int indexLimit) {
    return CatalogOptions.builder().limits(leafLimit, indexLimit).sleeper(d -> {}).build();
  }

  static PartitionCatalog catalog(ObjectStore store, CatalogOptions options) {
    return new CatalogStore(store, options).partition(keys(), identity());
  }

  static Id128 id(int marker) {
    byte[] b = new byte[16];
    Arrays.fill(b, (byte) marker);
    b[0] = (byte) 0x5a; // never all zero, even for marker 0
    return Id128.of(b);
  }

  static Id128 uuid(long n) {
    return Id128.of(ByteBuffer.allocate(16).putLong(0x5e65e65e65e6L).putLong(n).array());
  }

  /** A segment entry as a writer of {@code session} would publish it. */
  static LeafEntry segment(FencedSession session, long base, long records, long minTs, long maxTs) {
    return segment(session.writerEpoch(), session.writerId(), base, records, minTs, maxTs);
  }

  static LeafEntry segment(long epoch, Id128 writer, long base, long records, long minTs, long maxTs) {
    return new LeafEntry(base, base + records - 1, minTs, maxTs, records, 1, 4096 + (base & 0xffff),
        2048, 128, CatalogFormat.CODEC_ZSTD, HashAlgorithm.XXH64.id(), 0x0102030405060708L + base,
        0x1112131415161718L + base, epoch, uuid(base), writer);
  }

  /**
   * {@code count} contiguous segments from {@code base} with {@code records} records each;
   * timestamps rise by 10 per segment and the last timestamp of a segment repeats as the first of
   * the next (duplicate timestamps across boundaries).
   */
  static List<LeafEntry> segments(FencedSession session, long base, int count, long records, long ts) {
    List<LeafEntry> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      long b = base + i * records;
      long t = ts + 10L * i;
      out.add(segment(session, b, records, t, t + 10));
    }
    return out;
  }

  /** Recomputes both trailer hashes of a catalog object after an edit. */
  static byte[] reseal(byte[] bytes, HashAlgorithm algorithm) {
    byte[] out = bytes.clone();
    int at = out.length - 32;
    ByteBuffer b = ByteBuffer.wrap(out);
    b.putLong(at + 8, algorithm.hash(out, 0, at));
    byte[] trailer = Arrays.copyOfRange(out, at, out.length);
    Arrays.fill(trailer, 16, 24, (byte) 0);
    b.putLong(at + 16, algorithm.hash(trailer, 0, 32));
    return out;
  }
}
