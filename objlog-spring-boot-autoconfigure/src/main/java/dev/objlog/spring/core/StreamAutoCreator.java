package dev.objlog.spring.core;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.coordination.CasDocument;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.coordination.json.JsonWriter;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.key.StreamIds;
import dev.objlog.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Opens streams that are not configured by name ({@code objlog.defaults.auto-create}): the stream
 * id is the name, and the partition count is the one recorded in the bucket, so that every instance
 * agrees on it. The record is {@code maintenance/stream.json} in the folder of the stream's
 * partition 0 (docs/FORMAT.md, "Our extensions"):
 * {@code {"version":1,"stream_id":"orders","partitions":8,"created_unix_ms":1767225600000}},
 * created once by compare-and-swap and never changed.
 *
 * <ul>
 *   <li>a record exists: its count, unless {@code configuredPartitions} says another (refused);
 *   <li>no record, no stream yet (partition 0 has no catalog head): the stream is new, its count
 *       is {@code configuredPartitions} (1 when unset) and is recorded;
 *   <li>no record, but the stream exists (created by the Go library, or by a version without
 *       records): its count is recorded only when configured; otherwise refused, since no count
 *       could be trusted.
 * </ul>
 *
 * <p>Error contract: {@link InvalidArgumentException} for a name that is not a valid stream name
 * (1 to 64 letters, digits, '-' or '_'); {@link StreamPartitionsException} when the count cannot be
 * agreed; {@link CorruptObjectException} for a record that is not one; the store's exceptions (after
 * the document's retries) otherwise.
 *
 * <p>Thread-safety: safe for concurrent use within and across processes (racing creators agree
 * through the compare-and-swap: the loser adopts the winner's count, or is refused if it asked for
 * another).
 */
public final class StreamAutoCreator {
  /** Relative to the catalog folder of the stream's partition 0. */
  public static final String RECORD_NAME = "maintenance/stream.json";
  private static final int VERSION = 1;
  private static final Set<String> FIELDS = Set.of("version", "stream_id", "partitions", "created_unix_ms");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  private static final CasDocument.Retries RETRIES =
      CasDocument.Retries.backoff(5, Duration.ofMillis(10), Duration.ofMillis(200), dev.objlog.store.Sleeper.SYSTEM);

  /** The record: a stream's partition count. */
  private record Recorded(String streamId, int partitions, long createdUnixMs) {}

  private final ObjectStore store;
  private final KeyPrefixes prefixes;
  private final @Nullable Integer configuredPartitions;
  private final int maxPartitions;
  private final Clock clock;

  /**
   * @param store the store of the log
   * @param prefix the store prefix ({@code objlog.store.prefix})
   * @param configuredPartitions the partition count streams should have ({@code
   *     objlog.defaults.partitions}), or null to take the recorded one
   * @param maxPartitions the most partitions a stream may have
   * @param clock stamps {@code created_unix_ms}
   */
  public StreamAutoCreator(ObjectStore store, String prefix, @Nullable Integer configuredPartitions,
      int maxPartitions, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.prefixes = KeyPrefixes.resolve(Objects.requireNonNull(prefix, "prefix"));
    this.configuredPartitions = configuredPartitions;
    this.maxPartitions = maxPartitions;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Whether {@code name} may name an auto-created stream (its id is the name). */
  public static boolean isStreamName(String name) {
    return NAME.matcher(name).matches();
  }

  /** The object key of a stream's partition count record. */
  public String recordKey(String streamId) {
    return PartitionKeys.of(prefixes, streamId, 0).catalogDir() + RECORD_NAME;
  }

  /**
   * The partition count recorded for a stream, if any; reads the record and never writes it.
   * Any stream id may be asked, also one configured under {@code objlog.streams}.
   *
   * @throws CorruptObjectException for a record that is not one
   */
  public OptionalInt recordedPartitions(String streamId) {
    String canonical = StreamIds.canonical(streamId);
    return document(canonical).read().map(r -> OptionalInt.of(r.partitions())).orElse(OptionalInt.empty());
  }

  /** Whether the stream's partition {@code partition} has a catalog head (was ever written). */
  public boolean partitionExists(String streamId, int partition) {
    return store.head(PartitionKeys.of(prefixes, StreamIds.canonical(streamId), partition).head()).isPresent();
  }

  private CasDocument<Recorded> document(String streamId) {
    return new CasDocument<>(store, recordKey(streamId), "stream partition count record",
        CasDocument.Codec.of(bytes -> decode(bytes, streamId), StreamAutoCreator::encode), RETRIES);
  }

  /**
   * The stream named {@code name}, with its agreed partition count, recorded if it was not.
   *
   * @throws InvalidArgumentException for a name that cannot be a stream's
   * @throws StreamPartitionsException when the partition count cannot be agreed
   */
  public ObjlogStream open(String name) {
    if (!isStreamName(name)) {
      throw new InvalidArgumentException("'" + name + "' cannot name an auto-created stream: use 1 to 64 letters,"
          + " digits, '-' or '_', starting with a letter or digit (or configure it under objlog.streams)");
    }
    String streamId = StreamIds.canonical(name);
    PartitionKeys partition0 = PartitionKeys.of(prefixes, streamId, 0);
    String key = partition0.catalogDir() + RECORD_NAME;
    CasDocument<Recorded> record = document(streamId);
    int partitions = record.update((Optional<Recorded> stored) -> {
      if (stored.isPresent()) {
        int recorded = stored.get().partitions();
        if (configuredPartitions != null && configuredPartitions != recorded) {
          throw new StreamPartitionsException(name, "stream '" + name + "' has " + recorded
              + " partitions (recorded at " + key + "), but objlog.defaults.partitions says " + configuredPartitions
              + "; a stream's partition count never changes. Set objlog.defaults.partitions to " + recorded
              + " or unset it, or configure the stream under objlog.streams." + name + ".");
        }
        return CasDocument.keep(recorded);
      }
      if (configuredPartitions == null && store.head(partition0.head()).isPresent()) {
        throw new StreamPartitionsException(name, "stream '" + name + "' exists in the bucket without a recorded"
            + " partition count (it was created by another library or version), and objlog.defaults.partitions is"
            + " not set, so its partition count is unknown. Set objlog.defaults.partitions (or objlog.streams."
            + name + ".partitions) to the stream's partition count; it is then recorded at " + key + ".");
      }
      int count = configuredPartitions == null ? 1 : configuredPartitions;
      return CasDocument.write(new Recorded(streamId, count, Math.max(0, clock.millis())), count);
    }).result();
    if (partitions < 1 || partitions > maxPartitions) {
      throw new StreamPartitionsException(name, "stream '" + name + "' has " + partitions + " partitions recorded at "
          + key + "; this application allows 1 to " + maxPartitions + ".");
    }
    return new ObjlogStream(name, streamId, partitions);
  }

  private static byte[] encode(Recorded record) {
    return JsonWriter.object()
        .number("version", VERSION)
        .string("stream_id", record.streamId())
        .unsigned("partitions", record.partitions())
        .number("created_unix_ms", record.createdUnixMs())
        .finishBytes();
  }

  private static Recorded decode(byte[] bytes, String streamId) {
    String what = "partition count record of stream \"" + streamId + "\"";
    JsonObject o = JsonReader.parseObject(bytes, what).requireOnly(FIELDS);
    if (o.unsigned("version") != VERSION) {
      throw new CorruptObjectException(what + ": unsupported version");
    }
    String stored = o.string("stream_id");
    if (!stored.equals(streamId)) {
      throw new CorruptObjectException(what + ": belongs to stream \"" + stored + "\"");
    }
    long partitions = o.unsignedAtMost("partitions", Integer.MAX_VALUE);
    if (partitions < 1) {
      throw new CorruptObjectException(what + ": partitions is 0");
    }
    long created = o.signed("created_unix_ms");
    if (created < 0) {
      throw new CorruptObjectException(what + ": created_unix_ms is negative");
    }
    return new Recorded(stored, (int) partitions, created);
  }
}
