package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JacksonException;

/** The corpus manifest is parsed strictly, so a schema drift fails loudly instead of testing less. */
class SegmentManifestParsingTests {

  private static final String VECTOR = """
      {"name":"n","file":"f.plseg","file_sha256":"00","writer_byte_stable":true,
       "writer":{"target_block_size":80,"created_unix_ms":1,"segment_uuid":"%s","writer_tag":"%s"},
       "segment_ref":{"uri":"u","stream_id":"s","partition":7,"writer_epoch":"9",
         "segment_uuid":"%s","writer_tag":"%s","base_lsn":%s,"last_lsn":"18446744073709551614",
         "min_timestamp_ms":1,"max_timestamp_ms":2,"record_count":1,"block_count":1,"size_bytes":"500",
         "block_index_offset":"200","block_index_length":128,"codec":{"id":0,"name":"none"},
         "hash_algorithm":{"id":0,"name":"crc32c"},"record_format":{"id":1,"name":"v1"},
         "segment_hash":"0000000000000001","trailer_hash":"0000000000000002"%s},
       "blocks":[],"records":[]}
      """;
  private static final String ID = "00112233445566778899aabbccddeeff";

  private static String manifest(String vectors) {
    return "{\"schema_version\":1,\"segment_format_version\":2,\"vectors\":[" + vectors + "]}";
  }

  private static String vector(String baseLsn, String extraRefField) {
    return VECTOR.formatted(ID, ID, ID, ID, baseLsn, extraRefField);
  }

  private static SegmentCorpus.Manifest load(Path dir, String json) throws IOException {
    Files.writeString(dir.resolve("manifest.json"), json);
    return SegmentCorpus.load(dir);
  }

  @Test
  void u64ValuesAboveTwoToThe53RoundTripExactly(@TempDir Path dir) throws IOException {
    SegmentCorpus.Manifest m = load(dir, manifest(vector("\"9007199254740993\"", "")));
    SegmentCorpus.Vector v = m.vectors().get(0);
    assertThat(SegmentCorpus.u64(v.segmentRef().baseLsn())).isEqualTo(9_007_199_254_740_993L);
    assertThat(SegmentCorpus.u64(v.segmentRef().lastLsn())).isEqualTo(SegmentFormat.MAX_RECORD_LSN);
  }

  @Test
  void unknownFieldsAreRejected(@TempDir Path dir) {
    assertThatThrownBy(() -> load(dir, manifest(vector("\"1\"", ",\"surprise\":1"))))
        .isInstanceOf(JacksonException.class)
        .hasMessageContaining("surprise");
  }

  @Test
  void u64GivenAsAJsonNumberIsRejected(@TempDir Path dir) {
    assertThatThrownBy(() -> load(dir, manifest(vector("9007199254740993", ""))))
        .isInstanceOf(JacksonException.class);
  }

  @Test
  void u64StringsMustBeCanonicalDecimals() {
    assertThatThrownBy(() -> SegmentCorpus.u64("+1")).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> SegmentCorpus.u64("01")).isInstanceOf(AssertionError.class);
    assertThatThrownBy(() -> SegmentCorpus.u64("18446744073709551616")).isInstanceOf(NumberFormatException.class);
  }

  @Test
  void aManifestWithoutVectorsFails(@TempDir Path dir) {
    assertThatThrownBy(() -> load(dir, manifest(""))).isInstanceOf(AssertionError.class)
        .hasMessageContaining("vectors");
    assertThatThrownBy(() -> load(dir, "{\"schema_version\":1,\"segment_format_version\":2}"))
        .isInstanceOf(JacksonException.class);
  }
}
