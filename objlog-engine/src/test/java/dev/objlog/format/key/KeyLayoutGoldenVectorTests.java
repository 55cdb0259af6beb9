package dev.objlog.format.key;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The reference implementation's key-layout golden vectors (FORMAT.md §3.1, §4.3). */
class KeyLayoutGoldenVectorTests {

  @ParameterizedTest(name = "\"{0}\" partition {1} -> {2} / {3}")
  @CsvSource(
      value = {
        "hosts/host-a/events  | 0 | 77483f93 | f93",
        "hosts/host-a/events  | 1 | 8523bc90 | c90",
        "hosts/host-a/events  | 7 | a3825b78 | b78",
        "hosts/host-b/events  | 0 | 24da43c3 | 3c3",
        "agents/a7/sessions/42 | 0 | 818e05ce | 5ce",
        "workflows/w19/events | 0 | 67e396aa | 6aa",
        "''                   | 1 | 7e433189 | 189",
        "''                   | 3 | 9f78417e | 17e",
        "''                   | 7 | 58e2d661 | 661",
      },
      delimiter = '|')
  void bucketMatchesTheReferenceChecksumAndShard(
      String streamId, int partition, String checksumHex, String bucket) {
    assertThat(Integer.toHexString(StreamIds.bucketChecksum(streamId, partition)))
        .isEqualTo(checksumHex.replaceFirst("^0+(?=.)", ""));
    assertThat(StreamIds.bucket(streamId, partition)).isEqualTo(bucket);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"hosts/host-a/events", "/hosts/host-a/events", "//hosts/host-a/events//"})
  void streamKeyMatchesTheReferenceWithOrWithoutSurroundingSlashes(String streamId) {
    String expected = "645c418edae21662304240f5181b1b63c713bfc0b062a2c3b1b84387aa786c91";
    assertThat(StreamIds.streamKeyHex(streamId)).isEqualTo(expected);
    assertThat(StreamIds.streamKey(streamId)).hasSize(32);
    assertThat(java.util.HexFormat.of().formatHex(StreamIds.streamKey(streamId))).isEqualTo(expected);
    assertThat(StreamIds.bucket(streamId, 7)).isEqualTo("b78");
  }
}
