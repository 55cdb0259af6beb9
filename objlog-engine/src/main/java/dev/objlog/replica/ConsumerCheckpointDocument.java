package dev.objlog.replica;

import dev.objlog.read.CursorCheckpoint;
import java.nio.charset.StandardCharsets;

/**
 * The bucket document of a consumer's position, {@code <catalogDir>consumers/<id>/checkpoint.json}:
 * the cursor checkpoint's own JSON with {@code updated_unix_ms} appended. Replicas ({@link
 * CursorStore#inBucket}) and the Spring starter's bucket checkpoints write the same document, so
 * each can read what the other saved.
 *
 * <p>Thread-safety: stateless.
 */
public final class ConsumerCheckpointDocument {
  private ConsumerCheckpointDocument() {}

  /** The key of consumer {@code consumerId}'s document under a partition's catalog folder. */
  public static String key(String catalogDir, String consumerId) {
    return catalogDir + "consumers/" + consumerId + "/checkpoint.json";
  }

  /** The document's bytes: {@code checkpoint}'s JSON, then {@code updated_unix_ms}. */
  public static byte[] encode(CursorCheckpoint checkpoint, long updatedUnixMs) {
    String json = checkpoint.toJson();
    return (json.substring(0, json.length() - 1) + ",\"updated_unix_ms\":" + updatedUnixMs + "}")
        .getBytes(StandardCharsets.UTF_8);
  }
}
