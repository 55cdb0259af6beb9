package dev.objlog.format.key;

import dev.objlog.InvalidArgumentException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/**
 * Stream identity derivations of key layout v1: the canonical stream id, its stream key
 * (SHA-256) and the bucket shard.
 *
 * <p>Thread-safety: stateless.
 */
public final class StreamIds {
  /** Longest canonical stream id, in UTF-8 bytes. */
  public static final int MAX_STREAM_ID_BYTES = 512;

  /** Bits of the CRC-32C kept for the bucket: 4096 buckets, printed as 3 hex digits. */
  public static final int BUCKET_MASK = 0x0FFF;

  private StreamIds() {}

  /** Strips every leading and trailing '/'. No other change and no validation. */
  public static String normalize(String streamId) {
    int start = 0;
    int end = streamId.length();
    while (start < end && streamId.charAt(start) == '/') {
      start++;
    }
    while (end > start && streamId.charAt(end - 1) == '/') {
      end--;
    }
    return streamId.substring(start, end);
  }

  /**
   * The canonical form of a public stream id: surrounding '/' stripped, then required to be
   * non-empty, at most 512 bytes of UTF-8, free of control characters (U+0000–U+001F,
   * U+007F–U+009F) and free of empty, "." and ".." path segments.
   *
   * @throws InvalidArgumentException saying what to change
   */
  public static String canonical(String streamId) {
    for (int i = 0; i < streamId.length(); i++) {
      char c = streamId.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < streamId.length()
          && Character.isLowSurrogate(streamId.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new InvalidArgumentException(
            "stream id is not valid UTF-8: unpaired surrogate at index " + i
                + "; pass well-formed text");
      }
    }
    String id = normalize(streamId);
    if (id.isEmpty()) {
      throw new InvalidArgumentException(
          "stream id is empty after stripping leading and trailing '/'; give the stream a name"
              + " such as \"orders/events\"");
    }
    int bytes = id.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_STREAM_ID_BYTES) {
      throw new InvalidArgumentException(
          "stream id is " + bytes + " bytes of UTF-8; shorten it to at most "
              + MAX_STREAM_ID_BYTES);
    }
    // Character.isISOControl is exactly Go's unicode.IsControl, which FORMAT.md 3.1 names:
    // U+0000–U+001F (tab and newline included) and U+007F–U+009F (DEL and the C1 controls).
    int stripped = streamId.indexOf(id);
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (Character.isISOControl(c)) {
        throw new InvalidArgumentException(String.format(
            "stream id contains the control character U+%04X at index %d; remove it", (int) c,
            stripped + i));
      }
    }
    int segmentStart = 0;
    for (int i = 0; i <= id.length(); i++) {
      if (i == id.length() || id.charAt(i) == '/') {
        String segment = id.substring(segmentStart, i);
        if (segment.isEmpty()) {
          throw new InvalidArgumentException(
              "stream id \"" + id + "\" has an empty path segment; replace \"//\" with \"/\"");
        }
        if (segment.equals(".") || segment.equals("..")) {
          throw new InvalidArgumentException(
              "stream id \"" + id + "\" has a \"" + segment + "\" path segment; remove it or"
                  + " rename that segment");
        }
        segmentStart = i + 1;
      }
    }
    return id;
  }

  /**
   * The canonical form of a stream id given as raw bytes, which must be well-formed UTF-8.
   *
   * @throws InvalidArgumentException if the bytes are not UTF-8 or the id is not canonical
   */
  public static String canonical(byte[] utf8) {
    CharBuffer chars;
    try {
      chars =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(utf8));
    } catch (CharacterCodingException e) {
      throw new InvalidArgumentException("stream id is not valid UTF-8; pass UTF-8 encoded text");
    }
    return canonical(chars.toString());
  }

  /**
   * SHA-256 of the UTF-8 bytes of the id with surrounding '/' stripped: the 32 bytes stored in
   * catalog headers. Pass a canonical id; this method does not validate.
   */
  public static byte[] streamKey(String streamId) {
    return sha256(normalize(streamId).getBytes(StandardCharsets.UTF_8));
  }

  /** {@link #streamKey} as the 64 lowercase hex digits used in object keys. */
  public static String streamKeyHex(String streamId) {
    return HexFormat.of().formatHex(streamKey(streamId));
  }

  /**
   * The full CRC-32C behind the bucket: over u32be(byte length) ‖ id bytes ‖ u32be(partition),
   * with surrounding '/' stripped from the id first (as the reference implementation does). No
   * validation, so the empty id used internally has a bucket too.
   *
   * @param partition u32 held in an int
   */
  public static int bucketChecksum(String streamId, int partition) {
    byte[] id = normalize(streamId).getBytes(StandardCharsets.UTF_8);
    ByteBuffer input = ByteBuffer.allocate(8 + id.length);
    input.putInt(id.length).put(id).putInt(partition).flip();
    CRC32C crc = new CRC32C();
    crc.update(input);
    return (int) crc.getValue();
  }

  /** The bucket shard: the low 12 bits of {@link #bucketChecksum} as 3 lowercase hex digits. */
  public static String bucket(String streamId, int partition) {
    return String.format("%03x", bucketChecksum(streamId, partition) & BUCKET_MASK);
  }

  static byte[] sha256(byte[] input) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(input);
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform is required to provide SHA-256; reaching here means a broken JDK.
      throw new IllegalStateException("the JDK provides no SHA-256", e);
    }
  }
}
