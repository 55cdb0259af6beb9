package dev.objlog.lifecycle;

import dev.objlog.CorruptObjectException;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.coordination.json.JsonWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The lifecycle state and lease of one partition, {@code maintenance/gc/state.json}
 * (PROTOCOLS.md §5.8): compact JSON in the Go field order; {@code stream_id} and {@code owner_id}
 * omitted when empty, {@code updated_unix_ms} always present, every other field omitted when zero.
 * LSNs, levels, times and generations are unsigned 64-bit values.
 *
 * <p>Thread-safety: not thread-safe; one pass owns one instance.
 */
final class GcState {
  static final int VERSION = 1;
  static final int MAX_QUARANTINE = 1000;

  private static final Set<String> FIELDS = Set.of("version", "stream_id", "partition", "owner_id",
      "lease_until_unix_ms", "retention_version", "safe_floor_lsn", "pending_floor_lsn",
      "pending_since_unix_ms", "has_pending_floor", "segment_reclaimed_through_lsn",
      "segment_after_key", "page_reclaimed_through_lsn", "page_level", "page_after_key",
      "max_page_level", "staging_after_key", "staging_epoch", "orphan_segment_after_key",
      "orphan_page_level", "orphan_page_after_key", "page_quarantine", "updated_unix_ms");
  private static final Set<String> QUARANTINE_FIELDS =
      Set.of("key", "size_bytes", "observed_generation", "observed_unix_ms");

  /** A page scrub found unreachable; deleted on a later pass if it still is. */
  record Quarantined(String key, long sizeBytes, long observedGeneration, long observedUnixMs) {}

  String streamId = "";
  int partition;
  String ownerId = "";
  long leaseUntilUnixMs;
  long retentionVersion;
  long safeFloorLsn;
  long pendingFloorLsn;
  long pendingSinceUnixMs;
  boolean hasPendingFloor;
  long segmentReclaimedThroughLsn;
  String segmentAfterKey = "";
  long pageReclaimedThroughLsn;
  int pageLevel;
  String pageAfterKey = "";
  int maxPageLevel;
  String stagingAfterKey = "";
  long stagingEpoch;
  String orphanSegmentAfterKey = "";
  int orphanPageLevel;
  String orphanPageAfterKey = "";
  List<Quarantined> pageQuarantine = new ArrayList<>();
  long updatedUnixMs;

  static GcState fresh(String streamId, int partition) {
    GcState s = new GcState();
    s.streamId = streamId;
    s.partition = partition;
    return s;
  }

  byte[] encode() {
    JsonWriter w = JsonWriter.object().number("version", VERSION);
    if (!streamId.isEmpty()) {
      w.string("stream_id", streamId);
    }
    u(w, "partition", Integer.toUnsignedLong(partition));
    if (!ownerId.isEmpty()) {
      w.string("owner_id", ownerId);
    }
    u(w, "lease_until_unix_ms", leaseUntilUnixMs);
    u(w, "retention_version", retentionVersion);
    u(w, "safe_floor_lsn", safeFloorLsn);
    u(w, "pending_floor_lsn", pendingFloorLsn);
    u(w, "pending_since_unix_ms", pendingSinceUnixMs);
    if (hasPendingFloor) {
      w.bool("has_pending_floor", true);
    }
    u(w, "segment_reclaimed_through_lsn", segmentReclaimedThroughLsn);
    s(w, "segment_after_key", segmentAfterKey);
    u(w, "page_reclaimed_through_lsn", pageReclaimedThroughLsn);
    u(w, "page_level", pageLevel);
    s(w, "page_after_key", pageAfterKey);
    u(w, "max_page_level", maxPageLevel);
    s(w, "staging_after_key", stagingAfterKey);
    u(w, "staging_epoch", stagingEpoch);
    s(w, "orphan_segment_after_key", orphanSegmentAfterKey);
    u(w, "orphan_page_level", orphanPageLevel);
    s(w, "orphan_page_after_key", orphanPageAfterKey);
    if (!pageQuarantine.isEmpty()) {
      w.beginArray("page_quarantine");
      for (Quarantined q : pageQuarantine) {
        w.beginObject().string("key", q.key())
            .unsigned("size_bytes", q.sizeBytes())
            .unsigned("observed_generation", q.observedGeneration())
            .unsigned("observed_unix_ms", q.observedUnixMs())
            .endObject();
      }
      w.endArray();
    }
    w.unsigned("updated_unix_ms", updatedUnixMs);
    return w.finishBytes();
  }

  private static void u(JsonWriter w, String name, long value) {
    if (value != 0) {
      w.unsigned(name, value);
    }
  }

  private static void s(JsonWriter w, String name, String value) {
    if (!value.isEmpty()) {
      w.string(name, value);
    }
  }

  /**
   * Decodes and validates a state object of the given stream partition.
   *
   * @throws CorruptObjectException naming the broken rule
   */
  static GcState decode(byte[] bytes, String streamId, int partition) {
    String what = "lifecycle state of partition " + Integer.toUnsignedString(partition);
    JsonObject o = JsonReader.parseObject(bytes, what).requireOnly(FIELDS);
    GcState s = new GcState();
    if (o.unsigned("version") != VERSION) {
      throw new CorruptObjectException(what + ": unsupported version");
    }
    s.streamId = o.string("stream_id", "");
    long p = o.has("partition") ? o.unsignedAtMost("partition", 0xFFFF_FFFFL) : 0;
    if (!s.streamId.equals(streamId) || p != Integer.toUnsignedLong(partition)) {
      throw new CorruptObjectException(what + ": belongs to stream \"" + s.streamId
          + "\" partition " + p);
    }
    s.partition = partition;
    s.ownerId = o.string("owner_id", "");
    if (!s.ownerId.isEmpty() && !ReclaimerOptions.isOwnerId(s.ownerId)) {
      throw new CorruptObjectException(what + ": owner_id is not 32 lowercase hex digits");
    }
    s.leaseUntilUnixMs = o.unsigned("lease_until_unix_ms", 0);
    s.retentionVersion = o.unsigned("retention_version", 0);
    s.safeFloorLsn = o.unsigned("safe_floor_lsn", 0);
    s.pendingFloorLsn = o.unsigned("pending_floor_lsn", 0);
    s.pendingSinceUnixMs = o.unsigned("pending_since_unix_ms", 0);
    s.hasPendingFloor = o.bool("has_pending_floor", false);
    s.segmentReclaimedThroughLsn = o.unsigned("segment_reclaimed_through_lsn", 0);
    s.segmentAfterKey = o.string("segment_after_key", "");
    s.pageReclaimedThroughLsn = o.unsigned("page_reclaimed_through_lsn", 0);
    s.pageLevel = level(o, "page_level", what);
    s.pageAfterKey = o.string("page_after_key", "");
    s.maxPageLevel = level(o, "max_page_level", what);
    s.stagingAfterKey = o.string("staging_after_key", "");
    s.stagingEpoch = o.unsigned("staging_epoch", 0);
    s.orphanSegmentAfterKey = o.string("orphan_segment_after_key", "");
    s.orphanPageLevel = level(o, "orphan_page_level", what);
    s.orphanPageAfterKey = o.string("orphan_page_after_key", "");
    if (o.has("page_quarantine")) {
      List<?> items = o.list("page_quarantine");
      if (items.size() > MAX_QUARANTINE) {
        throw new CorruptObjectException(what + ": more than " + MAX_QUARANTINE + " quarantined pages");
      }
      Set<String> seen = new HashSet<>();
      for (Object item : items) {
        if (!(item instanceof JsonObject q)) {
          throw new CorruptObjectException(what + ": page_quarantine holds a non-object");
        }
        q.requireOnly(QUARANTINE_FIELDS);
        String key = q.string("key");
        if (key.isEmpty() || !seen.add(key)) {
          throw new CorruptObjectException(what + ": empty or duplicate quarantined key \"" + key + "\"");
        }
        s.pageQuarantine.add(new Quarantined(key, q.unsigned("size_bytes", 0),
            q.unsigned("observed_generation", 0), q.unsigned("observed_unix_ms", 0)));
      }
    }
    s.updatedUnixMs = o.unsigned("updated_unix_ms");
    if (Long.compareUnsigned(s.segmentReclaimedThroughLsn, s.safeFloorLsn) > 0
        || Long.compareUnsigned(s.pageReclaimedThroughLsn, s.safeFloorLsn) > 0) {
      throw new CorruptObjectException(what + ": a reclaimed watermark is above the safe floor");
    }
    if (s.hasPendingFloor && Long.compareUnsigned(s.pendingFloorLsn, s.safeFloorLsn) <= 0) {
      throw new CorruptObjectException(what + ": the pending floor is not above the safe floor");
    }
    return s;
  }

  private static int level(JsonObject o, String name, String what) {
    return o.has(name) ? (int) o.unsignedAtMost(name, 63) : 0;
  }
}
