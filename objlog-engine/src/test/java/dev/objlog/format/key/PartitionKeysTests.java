package dev.objlog.format.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartitionKeysTests {
  private static final String KEY = "645c418edae21662304240f5181b1b63c713bfc0b062a2c3b1b84387aa786c91";
  private static final byte[] UUID = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");
  private static final PartitionKeys PROD =
      PartitionKeys.of(KeyPrefixes.resolve("prod"), "hosts/host-a/events", 7);

  @Test
  void specificationExampleForPrefixProd() {
    KeyPrefixes prefixes = KeyPrefixes.resolve("/prod/");
    assertThat(prefixes).isEqualTo(new KeyPrefixes("prod", "prod/catalog", "prod"));
    assertThat(prefixes.dataRootKeyHex()).startsWith("6754af96").endsWith("227d77");
    assertThat(PROD.head()).isEqualTo("prod/catalog/b78/streams/" + KEY + "/p00000007/head.plc");
    assertThat(PROD.segment(100, 3, UUID))
        .isEqualTo("prod/segments/b78/streams/" + KEY + "/p00000007/"
            + "seg-00000000000000000100-e00000000000000000003-000102030405060708090a0b0c0d0e0f.plseg");
  }

  @Test
  void everyCatalogKeyOfTheGrammar() {
    String dir = "prod/catalog/b78/streams/" + KEY + "/p00000007/";
    byte[] pageId = HexFormat.of().parseHex("ffeeddccbbaa99887766554433221100");
    assertThat(PROD.catalogDir()).isEqualTo(dir);
    assertThat(PROD.retentionMailbox()).isEqualTo(dir + "maintenance/retention.json");
    assertThat(PROD.gcState()).isEqualTo(dir + "maintenance/gc/state.json");
    assertThat(PROD.leafPage(5, 9, 12, pageId))
        .isEqualTo(dir + "pages/l00/leaf-00000000000000000009-00000000000000000005-00000000000000000012-"
            + "ffeeddccbbaa99887766554433221100.plc");
    assertThat(PROD.indexPage(3, 0, -2L, -1L, pageId))
        .isEqualTo(dir + "pages/l03/index-l03-18446744073709551614-00000000000000000000-"
            + "18446744073709551615-ffeeddccbbaa99887766554433221100.plc");
    assertThat(PROD.pageLevelDir(63)).isEqualTo(dir + "pages/l63/");
    assertThat(PROD.stagingDir(1, 2, UUID))
        .isEqualTo("prod/staging/b78/streams/" + KEY + "/p00000007/"
            + "seg-00000000000000000001-e00000000000000000002-000102030405060708090a0b0c0d0e0f/");
    assertThat(PROD.staging(1, 2, UUID, "part-1")).endsWith("0e0f/part-1");
  }

  @Test
  void prefixOverridesAndDefaults() {
    assertThat(KeyPrefixes.resolve("")).isEqualTo(new KeyPrefixes("objlog", "objlog/catalog", "objlog"));
    assertThat(KeyPrefixes.resolve("a", "/cat/", "/data/")).isEqualTo(new KeyPrefixes("a", "cat", "data"));
    assertThat(KeyPrefixes.resolve("a", "//", null)).isEqualTo(new KeyPrefixes("a", "a/catalog", "a"));
    assertThat(KeyPrefixes.dataRootKey("")).isEqualTo(KeyPrefixes.dataRootKey("objlog"));
    PartitionKeys direct = PartitionKeys.of("", "", "s", 0);
    assertThat(direct.head()).startsWith("catalog/");
    assertThat(direct.segmentsDir()).startsWith("objlog/segments/");
  }

  @Test
  void emptyStreamIdOmitsTheStreamsFolder() {
    PartitionKeys internal = PartitionKeys.of("catalog", "objlog", "", 3);
    assertThat(internal.head()).isEqualTo("catalog/17e/p00000003/head.plc");
    assertThat(internal.parse(internal.head())).isInstanceOf(ParsedKey.Head.class);
  }

  @Test
  void partitionDirectoryIsAtLeastEightDigitsOfTheUnsignedValue() {
    assertThat(PartitionKeys.partitionDir(0)).isEqualTo("p00000000");
    assertThat(PartitionKeys.partitionDir(123_456_789)).isEqualTo("p123456789");
    assertThat(PartitionKeys.partitionDir(-1)).isEqualTo("p4294967295");
  }

  @Test
  void streamIdIsCanonicalizedAndValidated() {
    assertThat(PartitionKeys.of("c", "d", "/hosts/host-a/events/", 7).head())
        .isEqualTo(PartitionKeys.of("c", "d", "hosts/host-a/events", 7).head());
    assertThatThrownBy(() -> PartitionKeys.of("c", "d", "a/../b", 7))
        .isInstanceOf(InvalidArgumentException.class);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void parsersInvertBuilders(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 500; i++) {
      long lo = random.nextInt(4) == 0 ? -2L : random.nextLong() >>> random.nextInt(64);
      long hi = lo + (Long.compareUnsigned(lo, -3L) < 0 ? random.nextInt(2) : 0);
      long generation = random.nextInt(4) == 0 ? -1L : 1 + (random.nextLong() >>> 1);
      int level = random.nextInt(64);
      byte[] id = new byte[16];
      random.nextBytes(id);
      id[0] |= 1;
      String page = PROD.page(level, lo, hi, generation, id);
      assertThat(PROD.parse(page))
          .isEqualTo(new ParsedKey.Page(page, level, lo, hi, generation, HexFormat.of().formatHex(id)));
      long epoch = random.nextInt(4) == 0 ? -1L : 1 + (random.nextLong() >>> 1);
      String segment = PROD.segment(lo, epoch, id);
      assertThat(PROD.parse(segment))
          .isEqualTo(new ParsedKey.Segment(segment, lo, epoch, HexFormat.of().formatHex(id)));
      String staging = PROD.staging(lo, epoch, id, "blocks/" + i);
      assertThat(PROD.parse(staging))
          .isEqualTo(new ParsedKey.Staging(staging, lo, epoch, HexFormat.of().formatHex(id), "blocks/" + i));
    }
    assertThat(PROD.parse(PROD.head())).isEqualTo(new ParsedKey.Head(PROD.head()));
    assertThat(PROD.parse(PROD.retentionMailbox())).isInstanceOf(ParsedKey.RetentionMailbox.class);
    assertThat(PROD.parse(PROD.gcState())).isInstanceOf(ParsedKey.GcState.class);
  }

  @Test
  void pageParserRejectsAnythingABuilderCouldNotHaveWritten() {
    String good = PROD.leafPage(5, 9, 12, UUID);
    assertThat(PROD.parsePage(good).seqHi()).isEqualTo(9);
    String pages = PROD.pagesDir();
    String id = "000102030405060708090a0b0c0d0e0f";
    String n20 = "00000000000000000009";
    String[] bad = {
      pages + "l00/leaf-" + n20 + "-" + n20 + "-00000000000000000000-" + id + ".plc", // generation 0
      pages + "l00/leaf-00000000000000000004-" + n20 + "-" + n20 + "-" + id + ".plc", // hi < lo
      pages + "l00/leaf-" + n20 + "-" + n20 + "-" + n20 + "-" + id.toUpperCase() + ".plc",
      pages + "l00/leaf-" + n20 + "-" + n20 + "-" + n20 + "-" + id.substring(1) + ".plc",
      pages + "l00/leaf-0000000000000000009-" + n20 + "-" + n20 + "-" + id + ".plc", // 19 digits
      pages + "l00/leaf-+0000000000000000009-" + n20 + "-" + n20 + "-" + id + ".plc",
      pages + "l00/leaf-99999999999999999999-" + n20 + "-" + n20 + "-" + id + ".plc", // > 2^64-1
      pages + "l00/leaf-" + n20 + "-" + n20 + "-" + n20 + "-" + id + ".json",
      pages + "l00/leaf-" + n20 + "-" + n20 + "-" + n20 + "-" + id + "-x.plc",
      pages + "l01/leaf-" + n20 + "-" + n20 + "-" + n20 + "-" + id + ".plc", // kind vs level
      pages + "l02/index-l01-" + n20 + "-" + n20 + "-" + n20 + "-" + id + ".plc",
      pages + "l64/index-l64-" + n20 + "-" + n20 + "-" + n20 + "-" + id + ".plc",
      pages + "l1/index-l1-" + n20 + "-" + n20 + "-" + n20 + "-" + id + ".plc",
      pages + "lx0/leaf-" + n20 + "-" + n20 + "-" + n20 + "-" + id + ".plc",
      pages + "l00/sub/leaf-" + n20 + "-" + n20 + "-" + n20 + "-" + id + ".plc",
      PartitionKeys.of(KeyPrefixes.resolve("prod"), "hosts/host-a/events", 8).leafPage(5, 9, 12, UUID),
      "prod/catalog/b78/streams/" + KEY + "/p00000007/other.json",
    };
    for (String key : bad) {
      assertThatThrownBy(() -> PROD.parse(key)).as(key).isInstanceOf(CorruptObjectException.class);
    }
  }

  @Test
  void segmentParserRejectsAnythingABuilderCouldNotHaveWritten() {
    String dir = PROD.segmentsDir();
    String id = "000102030405060708090a0b0c0d0e0f";
    String n20 = "00000000000000000100";
    String[] bad = {
      dir + "seg-" + n20 + "-e00000000000000000000-" + id + ".plseg", // epoch 0
      dir + "seg-" + n20 + "-e" + n20 + "-" + "0".repeat(32) + ".plseg", // zero uuid
      dir + "seg-" + n20 + "-e" + n20 + "-" + id.toUpperCase() + ".plseg",
      dir + "seg-" + n20 + "-x" + n20 + "-" + id + ".plseg",
      dir + "seg-" + n20 + "-e" + n20 + "-" + id + ".plc",
      dir + "seg-0" + n20 + "-e" + n20 + "-" + id + ".plseg",
      dir + "seg-" + n20 + "-e" + n20 + "-" + id + "/x.plseg",
      dir + "seg-1000000000000000000a-e" + n20 + "-" + id + ".plseg",
      PROD.stagingDir() + "seg-" + n20 + "-e" + n20 + "-" + id + "/",
      PROD.stagingDir() + "seg-" + n20 + "-e" + n20 + "-" + id,
      "elsewhere/seg-" + n20 + "-e" + n20 + "-" + id + ".plseg",
    };
    for (String key : bad) {
      assertThatThrownBy(() -> PROD.parse(key)).as(key).isInstanceOf(CorruptObjectException.class);
    }
  }

  @Test
  void buildersRefuseValuesTheLayoutCannotExpress() {
    assertThatThrownBy(() -> PROD.segment(0, 0, UUID)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> PROD.segment(0, 1, new byte[16])).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> PROD.segment(0, 1, new byte[15])).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> PROD.leafPage(2, 1, 1, UUID)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> PROD.leafPage(1, 2, 0, UUID)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> PROD.indexPage(0, 1, 2, 1, UUID)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> PROD.indexPage(64, 1, 2, 1, UUID)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> PROD.staging(1, 1, UUID, "")).isInstanceOf(InvalidArgumentException.class);
    assertThat(PROD.leafPage(0, -2L, 1, UUID)).contains("-18446744073709551614-00000000000000000000-");
  }
}
