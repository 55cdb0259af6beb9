package dev.objlog.format.catalog;

import static dev.objlog.format.catalog.CatalogVectors.IDENTITY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.format.HashAlgorithm;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every catalog vector must be rejected with a typed error after any single-byte corruption or
 * truncation, and after targeted edits that are re-sealed with correct hashes so that the
 * semantic rule, not the checksum, has to catch them (FORMAT.md §4.2).
 */
class CatalogCorruptionTests {

  private static final byte[] EMPTY = CatalogCodec.encodeHead(CatalogVectors.emptyHead());
  private static final byte[] POPULATED = CatalogCodec.encodeHead(CatalogVectors.populatedHead());
  private static final byte[] RETAINED = CatalogCodec.encodeHead(CatalogVectors.fullyRetainedHead());
  private static final byte[] LEAF = CatalogCodec.encodePage(CatalogVectors.leafPage()).bytes();
  private static final byte[] INDEX = CatalogCodec.encodePage(CatalogVectors.indexPage()).bytes();

  private static final HashAlgorithm X = HashAlgorithm.XXH64;
  private static final HashAlgorithm C = HashAlgorithm.CRC32C;

  // Offsets inside the populated head: header 0, last_segment 192, active[0] 320,
  // section header 448, section entry 464, trailer 544.
  private static final int LAST = 192;
  private static final int ACTIVE = 320;
  private static final int SECTION = 448;
  private static final int REF = 464;

  private static void decode(CatalogVectors.Vector vector, byte[] bytes) {
    if (vector.isPage()) {
      CatalogCodec.decodePage(bytes, IDENTITY);
    } else {
      CatalogCodec.decodeHead(bytes, IDENTITY);
    }
  }

  @Test
  void everySingleByteFlipAndEveryTruncationIsATypedRejection() {
    int cases = 0;
    for (CatalogVectors.Vector vector : CatalogVectors.all()) {
      byte[] original = vector.bytes();
      assertThatCode(() -> decode(vector, original)).as(vector.name()).doesNotThrowAnyException();
      for (int i = 0; i < original.length; i++) {
        byte[] bytes = original.clone();
        bytes[i] ^= (byte) 0xFF;
        expectTypedRejection(vector, bytes, vector.name() + " byte " + i + " flipped");
        cases++;
      }
      for (int length = 0; length < original.length; length++) {
        expectTypedRejection(
            vector, Arrays.copyOf(original, length), vector.name() + " truncated to " + length);
        cases++;
      }
    }
    System.out.println("catalog corruption sweep: " + cases + " cases rejected");
    assertThat(cases).isEqualTo(2 * (352 + 576 + 352 + 416 + 320));
  }

  private static void expectTypedRejection(CatalogVectors.Vector vector, byte[] bytes, String what) {
    try {
      decode(vector, bytes);
    } catch (ObjlogException expected) {
      return;
    } catch (RuntimeException e) {
      throw new AssertionError(what + ": untyped " + e, e);
    }
    fail(what + ": accepted");
  }

  static Stream<Arguments> semanticBreaks() {
    return Stream.of(
        // reserved bytes
        head("head header reserved [36,40)", "head header reserved bytes are non-zero", POPULATED, b -> b.put(37, (byte) 1)),
        head("head header reserved [184,192)", "head header reserved bytes are non-zero", EMPTY, C, b -> b.put(191, (byte) 1)),
        head("last_segment reserved", "head last_segment: reserved bytes are non-zero", POPULATED, b -> b.put(LAST + 125, (byte) 1)),
        head("active entry reserved", "head active entry 0: reserved bytes are non-zero", POPULATED, b -> b.put(ACTIVE + 120, (byte) 1)),
        head("section header reserved [5,8)", "head section 1 reserved bytes are non-zero", POPULATED, b -> b.put(SECTION + 6, (byte) 1)),
        head("section header reserved [12,16)", "head section 1 reserved bytes are non-zero", POPULATED, b -> b.put(SECTION + 15, (byte) 1)),
        head("section entry reserved [1,4)", "head section level 1 entry 0: reserved bytes are non-zero", POPULATED, b -> b.put(REF + 2, (byte) 1)),
        head("section entry reserved [72,80)", "head section level 1 entry 0: reserved bytes are non-zero", POPULATED, b -> b.put(REF + 79, (byte) 1)),
        head("last_segment bytes without the flag", "head without a last segment has non-zero last_segment bytes", EMPTY, C, b -> b.put(LAST + 3, (byte) 1)),
        head("trailer reserved [6,8)", "trailer reserved bytes are non-zero", POPULATED, b -> b.put(544 + 7, (byte) 1)),
        head("trailer reserved [24,32)", "trailer reserved bytes are non-zero", POPULATED, b -> b.put(544 + 30, (byte) 1)),
        page("page header reserved byte 17", "page header reserved bytes are non-zero", LEAF, X, b -> b.put(17, (byte) 1)),
        page("page header reserved [28,32)", "page header reserved bytes are non-zero", INDEX, C, b -> b.put(29, (byte) 1)),
        page("page header reserved [120,128)", "page header reserved bytes are non-zero", LEAF, X, b -> b.put(127, (byte) 1)),
        page("leaf entry reserved", "leaf entry 1: reserved bytes are non-zero", LEAF, X, b -> b.put(256 + 121, (byte) 1)),
        page("index entry reserved [1,4)", "index entry 0: reserved bytes are non-zero", INDEX, C, b -> b.put(128 + 1, (byte) 1)),
        page("index entry reserved [72,80)", "index entry 1: reserved bytes are non-zero", INDEX, C, b -> b.put(208 + 72, (byte) 1)),
        page("page flags", "page flags 0x1 contain unknown bits", LEAF, X, b -> b.putInt(8, 1)),
        // structure
        head("head magic", "head magic is \"PLCX\", want \"PLCH\"", POPULATED, b -> b.put(3, (byte) 'X')),
        head("head header_len", "head header_len 191, want 192", POPULATED, b -> b.putShort(6, (short) 191)),
        head("unknown head flag bit", "head flags 0x3 contain unknown bits", POPULATED, b -> b.putInt(8, 3)),
        head("section magic", "head section 1 magic is \"XLCS\", want \"PLCS\"", POPULATED, b -> b.put(SECTION, (byte) 'X')),
        head("section level", "head section 1 declares level 2", POPULATED, b -> b.put(SECTION + 4, (byte) 2)),
        head("section count reaches index_limit", "head section level 1 count 4 is invalid for index_limit 4", POPULATED, b -> b.putInt(SECTION + 8, 4)),
        head("section count beyond the bytes", "head truncated in section level 1", POPULATED, b -> b.putInt(SECTION + 8, 2)),
        head("active_count reaches leaf_limit", "head active_count 4 is invalid for leaf_limit 4", POPULATED, b -> b.putInt(28, 4)),
        head("level_count above 64", "head level_count 65 exceeds 64", POPULATED, b -> b.putInt(32, 65)),
        head("leaf_limit 0", "head limits leaf=0 index=4 are invalid", POPULATED, b -> b.putInt(20, 0)),
        head("leaf_limit 1025", "head limits leaf=1025 index=4 are invalid", POPULATED, b -> b.putInt(20, 1025)),
        head("index_limit 1", "head limits leaf=4 index=1 are invalid", POPULATED, b -> b.putInt(24, 1)),
        head("index_limit 1025", "head limits leaf=4 index=1025 are invalid", POPULATED, b -> b.putInt(24, 1025)),
        page("leaf magic", "unknown page magic \"PLCQ\"", LEAF, X, b -> b.put(3, (byte) 'Q')),
        page("page header_len", "page header_len 127, want 128", LEAF, X, b -> b.putShort(6, (short) 127)),
        page("entry_size", "page entry_size 80, want 128", LEAF, X, b -> b.putInt(24, 80)),
        page("entry_count 0", "page entry_count 0 is outside [1,1024]", LEAF, X, b -> b.putInt(20, 0)),
        page("entry_count above the bytes", "page size 416, want 544 for 3 entries", LEAF, X, b -> b.putInt(20, 3)),
        page("entry_count 1025", "page entry_count 1025 is outside [1,1024]", INDEX, C, b -> b.putInt(20, 1025)),
        page("leaf page with level 1", "leaf page level is 1, want 0", LEAF, X, b -> b.put(16, (byte) 1)),
        page("index page with level 0", "index page level 0 is outside [1,63]", INDEX, C, b -> b.put(16, (byte) 0)),
        page("index page with level 64", "index page level 64 is outside [1,63]", INDEX, C, b -> b.put(16, (byte) 64)),
        page("trailer magic", "trailer magic is \"XLCT\", want \"PLCT\"", LEAF, X, b -> b.put(384, (byte) 'X')),
        page("trailer_len", "trailer_len 33, want 32", LEAF, X, b -> b.putShort(384 + 4, (short) 33)),
        // ranges, counts and contiguity
        page("leaf entries not contiguous", "leaf entries 0 and 1 are not contiguous", LEAF, X, b -> {
          b.putLong(256, 3);
          b.putInt(256 + 32, 1);
        }),
        page("leaf entry last before base", "leaf entry 1: LSN range [2,1] is invalid", LEAF, X, b -> b.putLong(256 + 8, 1)),
        page("leaf entry last_lsn 2^64-1", "leaf entry 1: LSN range [2,18446744073709551615] is invalid", LEAF, X, b -> b.putLong(256 + 8, -1L)),
        page("leaf record_count mismatch", "leaf entry 0: record_count 3 does not match the LSN span 2", LEAF, X, b -> b.putInt(128 + 32, 3)),
        page("leaf timestamps inverted in an entry", "leaf entry 0: timestamp range [102,101] is inverted", LEAF, X, b -> b.putLong(128 + 16, 102)),
        page("leaf timestamps decrease across entries", "leaf timestamps decrease between entries 0 and 1", LEAF, X, b -> b.putLong(256 + 16, 100)),
        page("leaf epochs decrease", "leaf writer epochs decrease between entries 0 and 1", LEAF, X, b -> {
          b.putLong(128 + 80, 9);
          b.putLong(72, 9);
        }),
        page("leaf page epoch below last entry", "leaf page writer_epoch 7 is below its last entry's 8", LEAF, X, b -> b.putLong(72, 7)),
        page("leaf block_count 0", "leaf entry 0: block_count is zero", LEAF, X, b -> b.putInt(128 + 36, 0)),
        page("leaf size_bytes 0", "leaf entry 0: size_bytes is zero", LEAF, X, b -> b.putLong(128 + 40, 0)),
        page("leaf block_index_length 0", "leaf entry 0: block_index_length is zero", LEAF, X, b -> b.putInt(128 + 56, 0)),
        page("leaf codec 2", "leaf entry 0: unknown segment codec 2", LEAF, X, b -> b.putShort(128 + 60, (short) 2)),
        page("leaf segment hash algorithm 2", "leaf entry 0: unknown segment hash algorithm 2", LEAF, X, b -> b.putShort(128 + 62, (short) 2)),
        page("leaf entry epoch 0", "leaf entry 0: writer_epoch is zero", LEAF, X, b -> b.putLong(128 + 80, 0)),
        page("leaf segment uuid zero", "leaf entry 0: segment_uuid is zero", LEAF, X, b -> b.put(128 + 88, new byte[16])),
        page("leaf writer tag zero", "leaf entry 0: writer_tag is zero", LEAF, X, b -> b.put(128 + 104, new byte[16])),
        page("leaf segment_count", "leaf page segment_count 3 differs from its 2 entries", LEAF, X, b -> b.putLong(112, 3)),
        page("leaf seq_lo bound", "leaf page bounds do not match its first and last entries", LEAF, X, b -> b.putLong(32, 1)),
        page("leaf seq_hi bound", "leaf page bounds do not match its first and last entries", LEAF, X, b -> b.putLong(40, 4)),
        page("leaf min ts bound", "leaf page bounds do not match its first and last entries", LEAF, X, b -> b.putLong(48, 99)),
        page("leaf max ts bound", "leaf page bounds do not match its first and last entries", LEAF, X, b -> b.putLong(56, 105)),
        page("page generation 0", "page generation is zero", LEAF, X, b -> b.putLong(64, 0)),
        page("page epoch 0", "page writer_epoch is zero", INDEX, C, b -> b.putLong(72, 0)),
        page("page stream key zero", "page stream_key is zero", INDEX, C, b -> b.put(80, new byte[32])),
        page("index entries not contiguous", "index entries 0 and 1 are not contiguous", INDEX, C, b -> b.putLong(208 + 8, 5)),
        page("index timestamps decrease", "index timestamps decrease between entries 0 and 1", INDEX, C, b -> b.putLong(208 + 24, 103)),
        page("index entry child level", "index entry 0 has child level 1, want 0", INDEX, C, b -> b.put(128, (byte) 1)),
        page("index entry generation above page", "index entry 1 generation 10 exceeds the page generation 9", INDEX, C, b -> b.putLong(208 + 40, 10)),
        page("index entry generation 0", "index entry 0: generation is zero", INDEX, C, b -> b.putLong(128 + 40, 0)),
        page("index entry page id zero", "index entry 0: page_id is zero", INDEX, C, b -> b.put(128 + 48, new byte[16])),
        page("index entry_count 0", "index entry 0: entry_count 0 is outside [1,1024]", INDEX, C, b -> b.putInt(128 + 4, 0)),
        page("leaf reference segment_count differs", "index entry 0: a leaf reference has segment_count 3 but entry_count 2", INDEX, C, b -> {
          b.putLong(128 + 64, 3);
          b.putLong(112, 6);
        }),
        page("segment_count above the LSN span", "index entry 0: segment_count 5 exceeds the LSN span 4", INDEX, C, b -> {
          b.putInt(128 + 4, 5);
          b.putLong(128 + 64, 5);
          b.putLong(112, 8);
        }),
        page("index segment_count sum", "index page segment_count 6 differs from the sum 5 of its entries", INDEX, C, b -> b.putLong(112, 6)),
        page("index seq_hi bound", "index page bounds do not match its first and last entries", INDEX, C, b -> b.putLong(40, 9)),
        page("index seq_hi beyond max LSN", "index entry 1: LSN range [4,18446744073709551615] is invalid", INDEX, C, b -> {
          b.putLong(208 + 16, -1L);
          b.putLong(40, -1L);
        }),
        head("next_lsn does not follow last_segment", "head last_segment last_lsn 3 does not precede next_lsn 5", POPULATED, b -> b.putLong(40, 5)),
        head("oldest differs from the first root", "the first root starts at 0 but oldest_lsn is 1", POPULATED, b -> b.putLong(48, 1)),
        head("oldest above next", "head LSN state next=0 oldest=1 retention=0 is inconsistent", EMPTY, C, b -> b.putLong(48, 1)),
        head("applied retention above next", "head LSN state next=4 oldest=4 retention=5 is inconsistent", RETAINED, b -> b.putLong(56, 5)),
        head("applied retention lsn without version", "head has applied_retention_lsn 4 without a retention version", RETAINED, b -> b.putLong(64, 0)),
        head("reachable differs from roots", "head reachable_segment_count 1 differs from the roots' total 2", POPULATED, b -> {
          b.putLong(176, 1);
        }),
        head("reachable above segment_count", "head reachable_segment_count 3 exceeds segment_count 2", POPULATED, b -> b.putLong(176, 3)),
        head("segment_count 0 with a last segment", "head has a last segment but segment_count 0", RETAINED, b -> b.putLong(88, 0)),
        head("empty head with segments", "a head without a last segment must be empty: oldest == next, no segments, no roots", EMPTY, C, b -> b.putLong(88, 1)),
        head("empty head with oldest below next", "a head without a last segment must be empty: oldest == next, no segments, no roots", EMPTY, C, b -> b.putLong(40, 1)),
        head("fully retained head with oldest below next", "a head without roots must be fully retained: oldest == next and no reachable segments", RETAINED, b -> b.putLong(48, 3)),
        head("fully retained head with reachable segments", "a head without roots must be fully retained: oldest == next and no reachable segments", RETAINED, b -> b.putLong(176, 1)),
        head("last active differs from last_segment", "the last active entry differs from last_segment", POPULATED, b -> b.putLong(ACTIVE + 72, 5)),
        head("roots not contiguous", "head roots 0 and 1 are not contiguous", POPULATED, b -> {
          b.putLong(REF + 16, 0);
          b.putLong(REF + 64, 1);
          b.putLong(48, 0);
        }),
        head("root timestamps decrease", "head timestamps decrease between roots 0 and 1", POPULATED, b -> b.putLong(REF + 32, 102)),
        head("section entry child level", "head section level 1 entry 0 has child level 1, want 0", POPULATED, b -> b.put(REF, (byte) 1)),
        head("section entry generation above head", "head section level 1 entry 0 generation 10 exceeds the head generation 9", POPULATED, b -> b.putLong(REF + 40, 10)),
        head("active epoch above head epoch", "head active entry 0 writer_epoch 9 exceeds the head writer_epoch 8", POPULATED, b -> {
          b.putLong(ACTIVE + 80, 9);
          b.putLong(LAST + 80, 9);
        }),
        head("last_segment epoch above head epoch", "head last_segment writer_epoch 9 exceeds the head writer_epoch 8", RETAINED, b -> b.putLong(LAST + 80, 9)),
        head("writer epoch without writer id", "head writer_epoch and writer_id must be zero together", RETAINED, b -> b.put(96, new byte[16])),
        head("writer id without writer epoch", "head writer_epoch and writer_id must be zero together", EMPTY, C, b -> b.put(96, new byte[] {1})),
        head("head stream key zero", "head stream_key is zero", EMPTY, C, b -> b.put(112, new byte[32])),
        head("head data root key zero", "head data_root_key is zero", EMPTY, C, b -> b.put(144, new byte[32])),
        head("last_segment last_lsn at the max LSN", "last_segment last_lsn 18446744073709551614 does not precede next_lsn 18446744073709551615", RETAINED, b -> {
          b.putLong(LAST, 0xFFFF_FFFF_FFFF_FFFDL);
          b.putLong(LAST + 8, 0xFFFF_FFFF_FFFF_FFFEL);
          b.putLong(40, -1L);
        }));
  }

  private static Arguments head(String name, String why, byte[] bytes, Consumer<ByteBuffer> edit) {
    return head(name, why, bytes, X, edit);
  }

  private static Arguments head(
      String name, String why, byte[] bytes, HashAlgorithm algorithm, Consumer<ByteBuffer> edit) {
    return Arguments.of(name, why, false, Reseal.edit(bytes, algorithm, edit));
  }

  private static Arguments page(
      String name, String why, byte[] bytes, HashAlgorithm algorithm, Consumer<ByteBuffer> edit) {
    return Arguments.of(name, why, true, Reseal.edit(bytes, algorithm, edit));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("semanticBreaks")
  void resealedSemanticBreakIsRejectedByTheRuleNotTheHash(
      String name, String why, boolean isPage, byte[] bytes) {
    Throwable thrown = catchDecode(isPage, bytes);
    assertThat(thrown).as(name).isExactlyInstanceOf(CorruptObjectException.class);
    assertThat(thrown.getMessage()).as(name).contains(why);
  }

  private static Throwable catchDecode(boolean isPage, byte[] bytes) {
    try {
      if (isPage) {
        CatalogCodec.decodePage(bytes, IDENTITY);
      } else {
        CatalogCodec.decodeHead(bytes, IDENTITY);
      }
    } catch (RuntimeException e) {
      return e;
    }
    throw new AssertionError("accepted");
  }

  @Test
  void wrongVersionIsUnsupportedEvenWithValidHashes() {
    for (short version : new short[] {0, 2, -1}) {
      assertThatThrownBy(() -> CatalogCodec.decodeHead(Reseal.edit(POPULATED, X, b -> b.putShort(4, version))))
          .isInstanceOf(UnsupportedVersionException.class);
      assertThatThrownBy(() -> CatalogCodec.decodePage(Reseal.edit(LEAF, X, b -> b.putShort(4, version))))
          .isInstanceOf(UnsupportedVersionException.class);
      assertThatThrownBy(() -> CatalogCodec.decodePage(Reseal.edit(INDEX, C, b -> b.putShort(4, version))))
          .isInstanceOf(UnsupportedVersionException.class);
    }
  }

  @Test
  void unknownHashAlgorithmOrSegmentLayoutIsUnsupported() {
    assertThatThrownBy(() -> CatalogCodec.decodeHead(Reseal.edit(EMPTY, C, b -> b.putShort(16, (short) 2))))
        .isInstanceOf(UnsupportedVersionException.class);
    assertThatThrownBy(() -> CatalogCodec.decodeHead(Reseal.edit(EMPTY, C, b -> b.putShort(18, (short) 2))))
        .isInstanceOf(UnsupportedVersionException.class)
        .hasMessageContaining("segment_layout_version");
    assertThatThrownBy(() -> CatalogCodec.decodePage(Reseal.edit(LEAF, X, b -> b.putShort(18, (short) 7))))
        .isInstanceOf(UnsupportedVersionException.class);
  }

  @Test
  void wrongSizeIsRejectedEvenWithValidHashes() {
    for (int delta : new int[] {-1, 1, -80, 80, -128, 128, 16}) {
      assertThatThrownBy(() -> CatalogCodec.decodeHead(Reseal.resize(POPULATED, X, delta)))
          .as("populated head %+d", delta)
          .isExactlyInstanceOf(CorruptObjectException.class);
      assertThatThrownBy(() -> CatalogCodec.decodeHead(Reseal.resize(EMPTY, C, delta)))
          .as("empty head %+d", delta)
          .isExactlyInstanceOf(CorruptObjectException.class);
      assertThatThrownBy(() -> CatalogCodec.decodePage(Reseal.resize(LEAF, X, delta)))
          .as("leaf %+d", delta)
          .isExactlyInstanceOf(CorruptObjectException.class);
      assertThatThrownBy(() -> CatalogCodec.decodePage(Reseal.resize(INDEX, C, delta)))
          .as("index %+d", delta)
          .isExactlyInstanceOf(CorruptObjectException.class);
    }
  }

  @Test
  void hashMismatchesAreIntegrityErrors() {
    byte[] body = LEAF.clone();
    body[200] ^= 1;
    assertThatThrownBy(() -> CatalogCodec.decodePage(body))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("body hash");
    byte[] trailer = POPULATED.clone();
    trailer[544 + 9] ^= 1;
    assertThatThrownBy(() -> CatalogCodec.decodeHead(trailer))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("trailer hash");
  }

  @Test
  void identityExpectationsAreEnforced() {
    Key256 other = CatalogVectors.key(0xa2);
    assertThatThrownBy(() -> CatalogCodec.decodeHead(POPULATED, new CatalogIdentity(8, IDENTITY.streamKey(), IDENTITY.dataRootKey())))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("partition");
    assertThatThrownBy(() -> CatalogCodec.decodeHead(POPULATED, new CatalogIdentity(7, other, IDENTITY.dataRootKey())))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("stream_key");
    assertThatThrownBy(() -> CatalogCodec.decodeHead(POPULATED, new CatalogIdentity(7, IDENTITY.streamKey(), other)))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("data_root_key");
    assertThatThrownBy(() -> CatalogCodec.decodePage(LEAF, new CatalogIdentity(-1, IDENTITY.streamKey(), other)))
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("4294967295");
    assertThatThrownBy(() -> CatalogCodec.decodePage(INDEX, new CatalogIdentity(7, other, other)))
        .isInstanceOf(IntegrityException.class);
  }

  @Test
  void childPageMustMatchTheReferenceThatLedToIt() {
    EncodedPage sealed = CatalogCodec.encodePage(CatalogVectors.leafPage());
    IndexEntry good = sealed.reference();
    assertThat(good.level()).isZero();
    assertThat(good.entryCount()).isEqualTo(2);
    assertThat(good.segmentCount()).isEqualTo(2);
    DecodedPage child = CatalogCodec.decodeChild(LEAF, good, 8, IDENTITY);
    assertThat(child.leaf()).isEqualTo(CatalogVectors.leafPage());
    assertThatThrownBy(child::index).isInstanceOf(CorruptObjectException.class);

    List<IndexEntry> broken =
        List.of(
            new IndexEntry(0, 2, 0, 3, 100, 104, 9, CatalogVectors.id(0x11), 2),
            new IndexEntry(0, 1, 0, 3, 100, 104, 9, good.pageId(), 1),
            new IndexEntry(0, 2, 1, 3, 100, 104, 9, good.pageId(), 2),
            new IndexEntry(0, 2, 0, 4, 100, 104, 9, good.pageId(), 2),
            new IndexEntry(0, 2, 0, 3, 99, 104, 9, good.pageId(), 2),
            new IndexEntry(0, 2, 0, 3, 100, 105, 9, good.pageId(), 2),
            new IndexEntry(0, 2, 0, 3, 100, 104, 8, good.pageId(), 2),
            new IndexEntry(0, 2, 0, 3, 100, 104, 9, good.pageId(), 3));
    for (IndexEntry reference : broken) {
      assertThatThrownBy(() -> CatalogCodec.decodeChild(LEAF, reference, 8, IDENTITY))
          .as("%s", reference)
          .isInstanceOf(IntegrityException.class);
    }
    assertThatThrownBy(() -> CatalogCodec.decodeChild(LEAF, good, 7, IDENTITY))
        .as("child epoch above the parent's")
        .isInstanceOf(IntegrityException.class)
        .hasMessageContaining("writer_epoch");
    assertThatThrownBy(() -> CatalogCodec.decodeChild(LEAF, new IndexEntry(1, 2, 0, 3, 100, 104, 9, good.pageId(), 2), 8, IDENTITY))
        .as("a level-1 reference that leads to a leaf page")
        .isExactlyInstanceOf(CorruptObjectException.class);
    assertThatThrownBy(() -> CatalogCodec.decodeChild(LEAF, good, 8, new CatalogIdentity(6, IDENTITY.streamKey(), IDENTITY.dataRootKey())))
        .isInstanceOf(IntegrityException.class);

    EncodedPage index = CatalogCodec.encodePage(CatalogVectors.indexPage());
    assertThat(CatalogCodec.decodeChild(INDEX, index.reference(), 8, IDENTITY).index())
        .isEqualTo(CatalogVectors.indexPage());
  }

  @Test
  void encoderRefusesValuesThatBreakTheRules() {
    Head populated = CatalogVectors.populatedHead();
    assertThatThrownBy(() -> CatalogCodec.encodeHead(populated.toBuilder().reachableSegmentCount(1).build()))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("reachable_segment_count");
    assertThatThrownBy(() -> CatalogCodec.encodeHead(populated.toBuilder().nextLsn(5).build()))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> CatalogCodec.encodeHead(populated.toBuilder().leafLimit(1).build()))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("leaf_limit");
    assertThatThrownBy(() -> CatalogCodec.encodeHead(populated.toBuilder().lastSegment(null).build()))
        .isInstanceOf(InvalidArgumentException.class);
    LeafPage leaf = CatalogVectors.leafPage();
    assertThatThrownBy(() -> CatalogCodec.encodePage(new LeafPage(leaf.header(), List.of(leaf.entries().get(1), leaf.entries().get(0)))))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("contiguous");
    assertThatThrownBy(() -> CatalogCodec.encodePage(new LeafPage(leaf.header(), List.of())))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> LeafPage.seal(7, X, 1, 1, IDENTITY.streamKey(), List.of()))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> new IndexEntry(256, 1, 0, 0, 0, 0, 1, CatalogVectors.id(1), 1))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> CatalogVectors.leaf(0, 0x1_0000_0000L, 0, 0, 1, 1))
        .as("record_count 2^32+1 does not fit its field")
        .isInstanceOf(InvalidArgumentException.class);
  }
}
