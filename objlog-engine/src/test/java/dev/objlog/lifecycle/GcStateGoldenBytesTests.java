package dev.objlog.lifecycle;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The exact bytes of {@code maintenance/gc/state.json} (PROTOCOLS.md §5.8), which a Go reclaimer
 * also writes and must keep reading (its lease locks it out): Go struct order, zero fields omitted
 * except {@code updated_unix_ms} and the quarantine entries' numbers, HTML-safe escaping.
 */
class GcStateGoldenBytesTests {
  private static final String OWNER = "0123456789abcdef0123456789abcdef";

  private static void assertBytes(GcState state, String expected) {
    byte[] actual = state.encode();
    assertThat(new String(actual, UTF_8)).as("state text").isEqualTo(expected);
    assertThat(actual).as("state bytes of " + expected).isEqualTo(expected.getBytes(UTF_8));
  }

  @Test
  void aFreshStateWritesOnlyItsVersionAndUpdateTime() {
    assertBytes(GcState.fresh("", 0), "{\"version\":1,\"updated_unix_ms\":0}");
  }

  @Test
  void everyFieldIsWrittenInGoStructOrder() {
    byte[] sample = GcStateFuzzAccess.sample("fuzz/orders", 7);
    String expected = "{\"version\":1,\"stream_id\":\"fuzz/orders\",\"partition\":7,\"owner_id\":\"" + OWNER + "\","
        + "\"lease_until_unix_ms\":1700000060000,\"retention_version\":3,\"safe_floor_lsn\":40,"
        + "\"pending_floor_lsn\":50,\"pending_since_unix_ms\":1700000000000,\"has_pending_floor\":true,"
        + "\"segment_reclaimed_through_lsn\":30,\"segment_after_key\":\"objlog/seg-00000000000000000020-x\","
        + "\"page_reclaimed_through_lsn\":20,\"page_level\":1,"
        + "\"page_after_key\":\"catalog/pages/l01/index-l01-00000000000000000010-y\",\"max_page_level\":2,"
        + "\"staging_after_key\":\"staging/a\",\"staging_epoch\":2,\"orphan_segment_after_key\":\"objlog/seg-z\","
        + "\"orphan_page_level\":1,\"orphan_page_after_key\":\"catalog/pages/l01/q\","
        + "\"page_quarantine\":[{\"key\":\"catalog/pages/l00/leaf-1\",\"size_bytes\":416,"
        + "\"observed_generation\":7,\"observed_unix_ms\":1699999000000}],\"updated_unix_ms\":1700000000000}";
    assertThat(new String(sample, UTF_8)).isEqualTo(expected);
    assertThat(sample).isEqualTo(expected.getBytes(UTF_8));
    assertBytes(GcState.decode(sample, "fuzz/orders", 7), expected);
  }

  @Test
  void unsignedFieldsUseTheWholeSixtyFourBitsAndKeysAreEscapedAsGoDoes() {
    GcState s = GcState.fresh("a/b", -1);
    s.ownerId = OWNER;
    s.leaseUntilUnixMs = -1L;
    s.retentionVersion = Long.MIN_VALUE;
    s.safeFloorLsn = -1L;
    s.pendingSinceUnixMs = Long.MAX_VALUE;
    s.segmentReclaimedThroughLsn = -2L;
    s.segmentAfterKey = "seg/<&>\"\\\u2028\u2029\u00e9\ud83d\ude00";
    s.pageReclaimedThroughLsn = -3L;
    s.pageLevel = 63;
    s.maxPageLevel = 63;
    s.stagingAfterKey = "st\n\t\u0000";
    s.stagingEpoch = -1L;
    s.orphanPageLevel = 63;
    s.orphanPageAfterKey = "x\udc00";
    s.pageQuarantine.add(new GcState.Quarantined("q/<1>", 0, 0, 0));
    s.pageQuarantine.add(new GcState.Quarantined("q/2", -1L, Long.MIN_VALUE, Long.MAX_VALUE));
    s.updatedUnixMs = -1L;
    String expected = "{\"version\":1,\"stream_id\":\"a/b\",\"partition\":4294967295,\"owner_id\":\"" + OWNER + "\","
        + "\"lease_until_unix_ms\":18446744073709551615,\"retention_version\":9223372036854775808,"
        + "\"safe_floor_lsn\":18446744073709551615,\"pending_since_unix_ms\":9223372036854775807,"
        + "\"segment_reclaimed_through_lsn\":18446744073709551614,"
        + "\"segment_after_key\":\"seg/\\u003c\\u0026\\u003e\\\"\\\\\\u2028\\u2029\u00e9\ud83d\ude00\","
        + "\"page_reclaimed_through_lsn\":18446744073709551613,\"page_level\":63,\"max_page_level\":63,"
        + "\"staging_after_key\":\"st\\n\\t\\u0000\",\"staging_epoch\":18446744073709551615,"
        + "\"orphan_page_level\":63,\"orphan_page_after_key\":\"x\ufffd\","
        + "\"page_quarantine\":[{\"key\":\"q/\\u003c1\\u003e\",\"size_bytes\":0,\"observed_generation\":0,"
        + "\"observed_unix_ms\":0},{\"key\":\"q/2\",\"size_bytes\":18446744073709551615,"
        + "\"observed_generation\":9223372036854775808,\"observed_unix_ms\":9223372036854775807}],"
        + "\"updated_unix_ms\":18446744073709551615}";
    assertBytes(s, expected);
    GcState back = GcState.decode(s.encode(), "a/b", -1);
    assertBytes(back, expected);
  }
}
