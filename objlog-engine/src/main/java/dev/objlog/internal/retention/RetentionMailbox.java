package dev.objlog.internal.retention;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.RetentionRegressionException;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.coordination.CasDocument;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.coordination.json.JsonWriter;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.Sleeper;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The retention mailbox of one partition, {@code maintenance/retention.json} (FORMAT.md §2.13):
 * {@code {"version":1,"stream_id":"…","partition":7,"policy_version":3,"before_lsn":100,
 * "created_unix_ms":…}}, {@code stream_id} omitted when empty.
 *
 * <p>Thread-safety: immutable.
 *
 * @param streamId the canonical stream id ("" only for internal use)
 * @param partition the stream partition (u32)
 * @param policyVersion positive (u64)
 * @param beforeLsn records below it may be trimmed (u64)
 * @param createdUnixMs when it was written, non-negative
 */
public record RetentionMailbox(
    String streamId, int partition, long policyVersion, long beforeLsn, long createdUnixMs) {

  public static final int VERSION = 1;
  static final int ATTEMPTS = 3;
  static final Duration INITIAL_BACKOFF = Duration.ofMillis(5);
  static final Duration MAX_BACKOFF = Duration.ofMillis(50);

  private static final Set<String> FIELDS = Set.of("version", "stream_id", "partition",
      "policy_version", "before_lsn", "created_unix_ms");

  public byte[] encode() {
    JsonWriter w = JsonWriter.object().number("version", VERSION);
    if (!streamId.isEmpty()) {
      w.string("stream_id", streamId);
    }
    return w.unsigned("partition", Integer.toUnsignedLong(partition))
        .unsigned("policy_version", policyVersion)
        .unsigned("before_lsn", beforeLsn)
        .number("created_unix_ms", createdUnixMs)
        .finishBytes();
  }

  /**
   * Decodes and validates a mailbox of {@code keys}' partition.
   *
   * @throws CorruptObjectException if it is malformed, of another version, stream or partition
   */
  public static RetentionMailbox decode(byte[] bytes, PartitionKeys keys) {
    String what = "retention mailbox of partition " + Integer.toUnsignedString(keys.partition());
    JsonObject o = JsonReader.parseObject(bytes, what).requireOnly(FIELDS);
    long version = o.unsigned("version");
    if (version != VERSION) {
      throw new CorruptObjectException(what + ": version " + Long.toUnsignedString(version)
          + " is not " + VERSION);
    }
    String streamId = o.string("stream_id", "");
    if (!streamId.equals(keys.streamId())) {
      throw new CorruptObjectException(what + ": belongs to stream \"" + streamId + "\", not \""
          + keys.streamId() + "\"");
    }
    long partition = o.unsignedAtMost("partition", 0xFFFF_FFFFL);
    if (partition != Integer.toUnsignedLong(keys.partition())) {
      throw new CorruptObjectException(what + ": names partition " + partition);
    }
    long policyVersion = o.unsigned("policy_version");
    if (policyVersion == 0) {
      throw new CorruptObjectException(what + ": policy_version must be positive");
    }
    long created = o.signed("created_unix_ms");
    if (created < 0) {
      throw new CorruptObjectException(what + ": created_unix_ms is negative");
    }
    return new RetentionMailbox(streamId, keys.partition(), policyVersion, o.unsigned("before_lsn"),
        created);
  }

  /** The mailbox as stored, with its token. */
  public record Stored(RetentionMailbox mailbox, VersionToken token) {}

  /**
   * Reads the mailbox of {@code keys}' partition.
   *
   * @throws CorruptObjectException if it is not a valid mailbox of this partition
   */
  public static Optional<Stored> read(ObjectStore store, PartitionKeys keys) {
    try {
      StoredObject object = store.get(keys.retentionMailbox());
      return Optional.of(new Stored(decode(object.bytes(), keys), object.token()));
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
  }

  /** What {@link #write} did. */
  public enum Outcome {
    CREATED,
    ADVANCED,
    UNCHANGED
  }

  /** The result of {@link #write}: the mailbox now stored and what the call did. */
  public record Written(RetentionMailbox mailbox, Outcome outcome) {}

  /**
   * Stores {@code (policyVersion, beforeLsn)} as the partition's request: create-if-absent or
   * compare-and-swap over an older request, up to 3 attempts with 5→50 ms backoff. The same
   * request again is a no-op.
   *
   * @throws InvalidArgumentException if {@code policyVersion} is 0
   * @throws RetentionRegressionException if the stored request has an equal or higher version
   *     (but is not this request) or a higher LSN
   * @throws TransientStoreException if the store kept failing or the mailbox kept changing
   */
  public static Written write(ObjectStore store, PartitionKeys keys, long policyVersion,
      long beforeLsn, long nowMs, Sleeper sleeper) {
    if (policyVersion == 0) {
      throw new InvalidArgumentException("a retention policy version must be positive");
    }
    RetentionMailbox wanted = new RetentionMailbox(keys.streamId(), keys.partition(), policyVersion,
        beforeLsn, Math.max(0, nowMs));
    return document(store, keys, sleeper).update(stored -> {
      if (stored.isEmpty()) {
        return CasDocument.write(wanted, new Written(wanted, Outcome.CREATED));
      }
      RetentionMailbox current = stored.get();
      if (current.policyVersion == policyVersion && current.beforeLsn == beforeLsn) {
        return CasDocument.keep(new Written(current, Outcome.UNCHANGED));
      }
      checkAdvances(current, policyVersion, beforeLsn);
      return CasDocument.write(wanted, new Written(wanted, Outcome.ADVANCED));
    }).result();
  }

  /** The mailbox of {@code keys}' partition as a compare-and-swap document with its budget. */
  static CasDocument<RetentionMailbox> document(ObjectStore store, PartitionKeys keys,
      Sleeper sleeper) {
    return new CasDocument<>(store, keys.retentionMailbox(), "retention mailbox",
        CasDocument.Codec.of(bytes -> decode(bytes, keys), RetentionMailbox::encode),
        retries(sleeper));
  }

  /** Every maintenance document's budget: 3 attempts, 5 then 10 ms apart (50 ms at most). */
  static CasDocument.Retries retries(Sleeper sleeper) {
    return CasDocument.Retries.backoff(ATTEMPTS, INITIAL_BACKOFF, MAX_BACKOFF, sleeper);
  }

  static void checkAdvances(RetentionMailbox stored, long policyVersion, long beforeLsn) {
    if (Long.compareUnsigned(policyVersion, stored.policyVersion) <= 0
        || Long.compareUnsigned(beforeLsn, stored.beforeLsn) < 0) {
      throw new RetentionRegressionException("retention request (version "
          + Long.toUnsignedString(policyVersion) + ", before " + Long.toUnsignedString(beforeLsn)
          + ") does not advance the requested (version "
          + Long.toUnsignedString(stored.policyVersion) + ", before "
          + Long.toUnsignedString(stored.beforeLsn) + ") of partition "
          + Integer.toUnsignedString(stored.partition), stored.policyVersion, stored.beforeLsn);
    }
  }

  static @Nullable StoredObject getOrNull(ObjectStore store, String key) {
    try {
      return store.get(key);
    } catch (ObjectNotFoundException e) {
      return null;
    }
  }
}
