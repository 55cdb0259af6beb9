package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * The reference segment corpus (FORMAT.md §4.1): locating it, and its manifest parsed strictly
 * (unknown fields rejected, u64 values only from decimal strings, never through a double).
 */
final class SegmentCorpus {
  static final String PROPERTY = "objlog.conformance.segformat";

  private static final Pattern U64 = Pattern.compile("0|[1-9][0-9]{0,19}");
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{16}");
  private static final Pattern ID = Pattern.compile("[0-9a-f]{32}");

  private SegmentCorpus() {}

  /**
   * The corpus directory; skips the calling test where it is absent on a user's machine, fails
   * under {@code CI=true}.
   */
  static Path directory() {
    String configured = System.getProperty(PROPERTY);
    Path dir = configured == null || configured.isBlank() ? null : Path.of(configured);
    if (dir == null || !Files.isDirectory(dir)) {
      String message = "segment conformance corpus not found (system property " + PROPERTY + " = "
          + configured + ")";
      if (dev.objlog.testing.Ci.isCi()) {
        fail(message + "; it must be present when CI=true");
      }
      assumeTrue(false, message + "; skipping (set CI=true to make this a failure)");
    }
    return dir;
  }

  static Manifest load(Path dir) {
    JsonMapper mapper = JsonMapper.builder()
        .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
        .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_NULL_CREATOR_PROPERTIES)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
        .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
        // u64 fields are strings in the schema; a JSON number there may already have lost digits.
        .withCoercionConfig(LogicalType.Textual, c -> c
            .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
        .build();
    Manifest manifest = parse(mapper, dir.resolve("manifest.json"));
    assertThat(manifest.schemaVersion()).as("manifest schema_version").isEqualTo(1);
    assertThat(manifest.segmentFormatVersion()).as("segment_format_version").isEqualTo(SegmentFormat.VERSION);
    assertThat(manifest.vectors()).as("manifest vectors").isNotEmpty();
    return manifest;
  }

  static Manifest parse(JsonMapper mapper, Path file) {
    try {
      return mapper.readValue(Files.readString(file), Manifest.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static long u64(String decimal) {
    assertThat(decimal).as("u64 decimal string").matches(U64);
    return Long.parseUnsignedLong(decimal);
  }

  static long hash(String hex) {
    assertThat(hex).as("hash hex").matches(HASH);
    return Long.parseUnsignedLong(hex, 16);
  }

  static byte[] id(String hex) {
    assertThat(hex).as("16-byte id hex").matches(ID);
    return HexFormat.of().parseHex(hex);
  }

  static byte[] base64(String text) {
    return Base64.getDecoder().decode(text);
  }

  /** The catalog reference a reader is given for this vector. */
  static SegmentRef ref(Vector v) {
    Ref r = v.segmentRef();
    return new SegmentRef(r.partition(), id(r.segmentUuid()), id(r.writerTag()), u64(r.baseLsn()),
        u64(r.lastLsn()), r.minTimestampMs(), r.maxTimestampMs(), r.recordCount(), r.blockCount(),
        u64(r.sizeBytes()), u64(r.blockIndexOffset()), r.blockIndexLength(),
        Codec.fromId(r.codec().id()), dev.objlog.format.HashAlgorithm.fromId(r.hashAlgorithm().id()),
        hash(r.segmentHash()), hash(r.trailerHash()));
  }

  static List<BlockInfo> blocks(Vector v) {
    return v.blocks().stream()
        .map(b -> new BlockInfo(u64(b.offset()), b.storedSize(), b.rawSize(), b.recordCount(),
            u64(b.baseLsn()), b.minTimestampMs(), b.maxTimestampMs(), hash(b.blockHash())))
        .toList();
  }

  static List<SegmentRecord> records(Vector v) {
    return v.records().stream()
        .map(r -> new SegmentRecord(u64(r.lsn()), r.timestampMs(),
            r.headers().stream()
                .map(h -> new RecordHeader(base64(h.keyBase64()), base64(h.valueBase64())))
                .toList(),
            base64(r.valueBase64())))
        .toList();
  }

  static byte[] bytes(Path dir, Vector v) {
    try {
      return Files.readAllBytes(dir.resolve(v.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  record Manifest(int schemaVersion, int segmentFormatVersion, List<Vector> vectors) {}

  record Vector(
      String name,
      String file,
      String fileSha256,
      boolean writerByteStable,
      Writer writer,
      Ref segmentRef,
      List<Block> blocks,
      List<Record> records) {}

  record Writer(int targetBlockSize, long createdUnixMs, String segmentUuid, String writerTag) {}

  record Ref(
      String uri,
      String streamId,
      long partition,
      String writerEpoch,
      String segmentUuid,
      String writerTag,
      String baseLsn,
      String lastLsn,
      long minTimestampMs,
      long maxTimestampMs,
      long recordCount,
      long blockCount,
      String sizeBytes,
      String blockIndexOffset,
      long blockIndexLength,
      EnumSpec codec,
      EnumSpec hashAlgorithm,
      EnumSpec recordFormat,
      String segmentHash,
      String trailerHash) {}

  record EnumSpec(int id, String name) {}

  record Block(
      String offset,
      long storedSize,
      long rawSize,
      long recordCount,
      String baseLsn,
      long minTimestampMs,
      long maxTimestampMs,
      String blockHash) {}

  record Record(String lsn, long timestampMs, List<Header> headers, String valueBase64) {}

  record Header(String keyBase64, String valueBase64) {}
}
