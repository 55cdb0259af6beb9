package dev.objlog.read;

import dev.objlog.CorruptObjectException;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.coordination.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where a {@link Cursor} stands, in the language-neutral form of PROTOCOLS.md §5.5: compact JSON
 * with the fields in this order, u64 values as plain JSON numbers, e.g. {@code
 * {"version":1,"stream_id":"demo/orders","partition":7,"next_lsn":4}}. A Go objlog process reads
 * the same checkpoints.
 *
 * <p>{@link #parse} accepts any version number (so a checkpoint round-trips) and ignores fields it
 * does not know (stores may add their own, e.g. an update time); {@link
 * PartitionReader#resume} then checks the version, the partition, the stream and the range.
 *
 * <p>Thread-safety: immutable.
 *
 * @param version format version; {@link #VERSION} is the only one resumable
 * @param streamId the canonical stream id
 * @param partition the stream partition (u32)
 * @param nextLsn the LSN the cursor reads next (u64)
 */
public record CursorCheckpoint(int version, String streamId, int partition, long nextLsn) {
  /** The checkpoint format this library writes and resumes. */
  public static final int VERSION = 1;

  public CursorCheckpoint {
    Objects.requireNonNull(streamId, "streamId");
  }

  /** A version-1 checkpoint. */
  public static CursorCheckpoint of(String streamId, int partition, long nextLsn) {
    return new CursorCheckpoint(VERSION, streamId, partition, nextLsn);
  }

  /** The exact compact JSON: {@code {"version":1,"stream_id":"...","partition":N,"next_lsn":N}}. */
  public String toJson() {
    return JsonWriter.object()
        .unsigned("version", Integer.toUnsignedLong(version))
        .string("stream_id", streamId)
        .unsigned("partition", Integer.toUnsignedLong(partition))
        .unsigned("next_lsn", nextLsn)
        .finish();
  }

  /** {@link #toJson()} as UTF-8 bytes. */
  public byte[] toJsonBytes() {
    return toJson().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Parses checkpoint JSON.
   *
   * @throws CheckpointInvalidException if it is not a JSON object with {@code version} (u32),
   *     {@code stream_id} (a string), {@code partition} (u32) and {@code next_lsn} (u64)
   */
  public static CursorCheckpoint parse(String json) {
    Objects.requireNonNull(json, "json");
    return parse(json.getBytes(StandardCharsets.UTF_8));
  }

  /** {@link #parse(String)} from UTF-8 bytes. */
  public static CursorCheckpoint parse(byte[] json) {
    Objects.requireNonNull(json, "json");
    try {
      JsonObject o = JsonReader.parseObject(json, "cursor checkpoint");
      int version = (int) o.unsignedAtMost("version", 0xFFFF_FFFFL);
      String streamId = o.string("stream_id");
      int partition = (int) o.unsignedAtMost("partition", 0xFFFF_FFFFL);
      long nextLsn = o.unsigned("next_lsn");
      return new CursorCheckpoint(version, streamId, partition, nextLsn);
    } catch (CorruptObjectException e) {
      throw new CheckpointInvalidException("invalid cursor checkpoint: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return toJson();
  }
}
