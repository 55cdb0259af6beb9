package dev.objlog.internal.retention;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.SnapshotMarker;
import dev.objlog.format.key.PartitionKeys;
import org.junit.jupiter.api.Test;

/**
 * The exact bytes of the retention mailbox (FORMAT.md §2.13, also written by Go) and of the snapshot
 * marker (ours): compact, fields in Go struct order, {@code stream_id} omitted when empty, Go's
 * HTML-safe string escaping. Pinned so a change of JSON codec cannot change a byte.
 */
class RetentionDocumentsGoldenBytesTests {

  private static void assertBytes(byte[] actual, String expected) {
    assertThat(new String(actual, UTF_8)).as("document text").isEqualTo(expected);
    assertThat(actual).as("document bytes of " + expected).isEqualTo(expected.getBytes(UTF_8));
  }

  @Test
  void theRetentionMailboxIsWrittenByteForByte() {
    RetentionMailbox m = new RetentionMailbox("demo/orders", 7, 3, 42, 1_700_000_000_000L);
    assertBytes(m.encode(), "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"policy_version\":3,"
        + "\"before_lsn\":42,\"created_unix_ms\":1700000000000}");
    assertThat(RetentionMailbox.decode(m.encode(), PartitionKeys.of("", "", "demo/orders", 7))).isEqualTo(m);
  }

  @Test
  void theMailboxOmitsAnEmptyStreamIdAndWritesUnsignedValuesAboveTwoToThe63() {
    assertBytes(new RetentionMailbox("", 0, 1, 0, 0).encode(),
        "{\"version\":1,\"partition\":0,\"policy_version\":1,\"before_lsn\":0,\"created_unix_ms\":0}");

    RetentionMailbox top = new RetentionMailbox("demo/orders", -1, -1L, Long.MIN_VALUE, Long.MAX_VALUE);
    assertBytes(top.encode(), "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":4294967295,"
        + "\"policy_version\":18446744073709551615,\"before_lsn\":9223372036854775808,"
        + "\"created_unix_ms\":9223372036854775807}");
    assertThat(RetentionMailbox.decode(top.encode(), PartitionKeys.of("", "", "demo/orders", -1))).isEqualTo(top);

    // created_unix_ms is Go's int64: a negative value (never written by write()) stays signed.
    assertBytes(new RetentionMailbox("", 1, 2, 3, -5).encode(),
        "{\"version\":1,\"partition\":1,\"policy_version\":2,\"before_lsn\":3,\"created_unix_ms\":-5}");
  }

  @Test
  void theMailboxEscapesItsStreamIdAsGoDoes() {
    assertBytes(new RetentionMailbox("a<b>&\"c\u2028\u00e9", 2, 1, 1, 1).encode(),
        "{\"version\":1,\"stream_id\":\"a\\u003cb\\u003e\\u0026\\\"c\\u2028\u00e9\",\"partition\":2,"
            + "\"policy_version\":1,\"before_lsn\":1,\"created_unix_ms\":1}");
  }

  @Test
  void theSnapshotMarkerIsWrittenByteForByte() {
    SnapshotMarker marker = new SnapshotMarker("fuzz/orders", 7, 41, "snapshots/p7/00041.bin", 1_700_000_000_000L);
    assertBytes(SnapshotMarkers.encode(marker), "{\"version\":1,\"stream_id\":\"fuzz/orders\",\"partition\":7,"
        + "\"through_lsn\":41,\"object_key\":\"snapshots/p7/00041.bin\",\"created_unix_ms\":1700000000000}");
    assertThat(SnapshotMarkers.decode(SnapshotMarkers.encode(marker), PartitionKeys.of("", "", "fuzz/orders", 7)))
        .isEqualTo(marker);
  }

  @Test
  void theSnapshotMarkerOmitsAnEmptyStreamIdAndEscapesItsObjectKey() {
    SnapshotMarker marker = new SnapshotMarker("", -1, Long.MIN_VALUE,
        "snap/<a>&\"b\\c\n\u2029\ud83d\ude00\ud800", Long.MAX_VALUE);
    assertBytes(SnapshotMarkers.encode(marker), "{\"version\":1,\"partition\":4294967295,"
        + "\"through_lsn\":9223372036854775808,"
        + "\"object_key\":\"snap/\\u003ca\\u003e\\u0026\\\"b\\\\c\\n\\u2029\ud83d\ude00\ufffd\","
        + "\"created_unix_ms\":9223372036854775807}");

    SnapshotMarker low = new SnapshotMarker("fuzz/orders", 0, 0, "k", 0);
    assertBytes(SnapshotMarkers.encode(low), "{\"version\":1,\"stream_id\":\"fuzz/orders\",\"partition\":0,"
        + "\"through_lsn\":0,\"object_key\":\"k\",\"created_unix_ms\":0}");
    assertThat(SnapshotMarkers.decode(SnapshotMarkers.encode(low), PartitionKeys.of("", "", "fuzz/orders", 0)))
        .isEqualTo(low);
  }
}
