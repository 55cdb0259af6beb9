package dev.objlog.internal.retention;

import static dev.objlog.internal.retention.RetentionMailbox.getOrNull;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.SnapshotMarker;
import dev.objlog.SnapshotRegressionException;
import dev.objlog.format.catalog.CatalogFormat;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.coordination.CasDocument;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.coordination.json.JsonWriter;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import java.util.Optional;
import java.util.Set;

/**
 * The snapshot marker of a partition, {@code maintenance/snapshot.json} under the partition's
 * catalog folder (ARCHITECTURE.md, "Our own objects in the bucket"; docs/FORMAT.md, "Our
 * extensions"): {@code {"version":1,"stream_id":"…","partition":7,"through_lsn":41,
 * "object_key":"…","created_unix_ms":…}}, compact, compare-and-swapped, monotonic in {@code
 * through_lsn}.
 *
 * <p>Thread-safety: stateless.
 */
public final class SnapshotMarkers {
  public static final int VERSION = 1;
  /** Relative to the partition's catalog folder. */
  public static final String NAME = "maintenance/snapshot.json";
  /** Longest object key a marker may name. */
  public static final int MAX_OBJECT_KEY_LENGTH = 4096;

  private static final Set<String> FIELDS = Set.of("version", "stream_id", "partition",
      "through_lsn", "object_key", "created_unix_ms");

  private SnapshotMarkers() {}

  public static String key(PartitionKeys keys) {
    return keys.catalogDir() + NAME;
  }

  static byte[] encode(SnapshotMarker marker) {
    JsonWriter w = JsonWriter.object().number("version", VERSION);
    if (!marker.streamId().isEmpty()) {
      w.string("stream_id", marker.streamId());
    }
    return w.unsigned("partition", Integer.toUnsignedLong(marker.partition()))
        .unsigned("through_lsn", marker.throughLsn())
        .string("object_key", marker.objectKey())
        .number("created_unix_ms", marker.createdUnixMs())
        .finishBytes();
  }

  /**
   * @throws CorruptObjectException if the bytes are not a valid marker of {@code keys}' partition
   */
  static SnapshotMarker decode(byte[] bytes, PartitionKeys keys) {
    String what = "snapshot marker of partition " + Integer.toUnsignedString(keys.partition());
    JsonObject o = JsonReader.parseObject(bytes, what).requireOnly(FIELDS);
    if (o.unsigned("version") != VERSION) {
      throw new CorruptObjectException(what + ": unsupported version");
    }
    String streamId = o.string("stream_id", "");
    if (!streamId.equals(keys.streamId())) {
      throw new CorruptObjectException(what + ": belongs to stream \"" + streamId + "\"");
    }
    if (o.unsignedAtMost("partition", 0xFFFF_FFFFL) != Integer.toUnsignedLong(keys.partition())) {
      throw new CorruptObjectException(what + ": names another partition");
    }
    String objectKey = o.string("object_key");
    if (objectKey.isEmpty()) {
      throw new CorruptObjectException(what + ": object_key is empty");
    }
    long created = o.signed("created_unix_ms");
    if (created < 0) {
      throw new CorruptObjectException(what + ": created_unix_ms is negative");
    }
    return new SnapshotMarker(streamId, keys.partition(),
        o.unsignedAtMost("through_lsn", CatalogFormat.MAX_RECORD_LSN), objectKey, created);
  }

  /**
   * The partition's newest snapshot marker.
   *
   * @throws CorruptObjectException if the stored marker is not valid
   */
  public static Optional<SnapshotMarker> latest(ObjectStore store, PartitionKeys keys) {
    StoredObject object = getOrNull(store, key(keys));
    return object == null ? Optional.empty() : Optional.of(decode(object.bytes(), keys));
  }

  /**
   * Records a snapshot through {@code throughLsn}: the LSN must be committed (below the head's
   * next LSN), and at or above the newest marker's. The same marker again is a no-op; a marker at
   * the same LSN with a different object key replaces it.
   *
   * @throws InvalidArgumentException for an empty or overlong key, or an LSN not yet committed
   * @throws SnapshotRegressionException if the newest marker covers a higher LSN
   * @throws TransientStoreException if the store kept failing or the marker kept changing
   */
  public static SnapshotMarker record(LogRuntime runtime, int partition, long throughLsn,
      String objectKey) {
    if (objectKey.isEmpty() || objectKey.length() > MAX_OBJECT_KEY_LENGTH) {
      throw new InvalidArgumentException("a snapshot object key must have 1.."
          + MAX_OBJECT_KEY_LENGTH + " characters");
    }
    PartitionKeys keys = runtime.keys(partition);
    Optional<HeadSnapshot> head = runtime.catalog(partition).loadHead();
    long next = head.map(h -> h.head().nextLsn()).orElse(0L);
    if (Long.compareUnsigned(throughLsn, next) >= 0) {
      throw new InvalidArgumentException("a snapshot through LSN " + Long.toUnsignedString(throughLsn)
          + " covers records partition " + Integer.toUnsignedString(partition)
          + " has not committed (next LSN " + Long.toUnsignedString(next) + ")");
    }
    SnapshotMarker wanted = new SnapshotMarker(keys.streamId(), partition, throughLsn, objectKey,
        Math.max(0, runtime.clock().millis()));
    CasDocument.Updated<SnapshotMarker> updated = new CasDocument<>(runtime.store(), key(keys),
        "snapshot marker", CasDocument.Codec.of(bytes -> decode(bytes, keys), SnapshotMarkers::encode),
        RetentionMailbox.retries(runtime.options().sleeper())).update(stored -> {
          if (stored.isEmpty()) {
            return CasDocument.write(wanted, wanted);
          }
          SnapshotMarker current = stored.get();
          int order = Long.compareUnsigned(throughLsn, current.throughLsn());
          if (order < 0) {
            throw new SnapshotRegressionException("the newest snapshot of partition "
                + Integer.toUnsignedString(partition) + " already covers LSN "
                + Long.toUnsignedString(current.throughLsn()) + ", above "
                + Long.toUnsignedString(throughLsn));
          }
          if (order == 0 && current.objectKey().equals(objectKey)) {
            return CasDocument.keep(current);
          }
          return CasDocument.write(wanted, wanted);
        });
    count(runtime, partition, updated.written() ? "recorded" : "unchanged");
    return updated.result();
  }

  private static void count(LogRuntime runtime, int partition, String outcome) {
    runtime.meters().counter(MetricNames.SNAPSHOT_MARKERS,
        runtime.tags(partition).and(MetricNames.TAG_OUTCOME, outcome)).increment();
  }
}
