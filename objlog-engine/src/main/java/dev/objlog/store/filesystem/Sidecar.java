package dev.objlog.store.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.CRC32;
import org.jspecify.annotations.Nullable;

/**
 * The bookkeeping record of one object: its generation and the identity of the exact file that
 * generation was given to. The identity (size, modification time, file key) is what makes a crash
 * between renaming the object and renaming its sidecar harmless: a sidecar whose identity does not
 * match the visible file is stale, and the file gets a fresh generation.
 *
 * @param key the object key (kept so that a sidecar file names its object without the hash)
 * @param generation the token's value
 * @param identity the file this generation belongs to
 * @param written when the store wrote the object, from its clock
 */
record Sidecar(String key, long generation, FileIdentity identity, Instant written) {

  private static final String MAGIC = "objlog-fs-meta 1";
  private static final HexFormat HEX = HexFormat.of();

  /**
   * What distinguishes one written file from another. Every write renames a fresh file into place,
   * and a fresh file is created while the old one still exists, so its file key (device and inode
   * on POSIX) differs; size and modification time cover file systems without file keys.
   */
  record FileIdentity(long size, String modified, String fileKey) {}

  byte[] encode() {
    StringBuilder text = new StringBuilder(256);
    text.append(MAGIC).append('\n');
    text.append("key=").append(HEX.formatHex(key.getBytes(UTF_8))).append('\n');
    text.append("generation=").append(generation).append('\n');
    text.append("size=").append(identity.size()).append('\n');
    text.append("modified=").append(identity.modified()).append('\n');
    text.append("file=").append(HEX.formatHex(identity.fileKey().getBytes(UTF_8))).append('\n');
    text.append("written=").append(written).append('\n');
    byte[] body = text.toString().getBytes(UTF_8);
    CRC32 crc = new CRC32();
    crc.update(body);
    String trailer = "crc=" + Long.toHexString(crc.getValue()) + "\n";
    byte[] out = new byte[body.length + trailer.length()];
    System.arraycopy(body, 0, out, 0, body.length);
    System.arraycopy(trailer.getBytes(UTF_8), 0, out, body.length, trailer.length());
    return out;
  }

  /** The sidecar in {@code bytes}, or {@code null} when they are torn, corrupt or for another key. */
  static @Nullable Sidecar decode(byte[] bytes, String expectedKey) {
    try {
      String text = new String(bytes, UTF_8);
      int crcAt = text.lastIndexOf("crc=");
      if (crcAt <= 0 || !text.endsWith("\n")) {
        return null;
      }
      CRC32 crc = new CRC32();
      crc.update(bytes, 0, text.substring(0, crcAt).getBytes(UTF_8).length);
      if (!Long.toHexString(crc.getValue()).equals(text.substring(crcAt + 4, text.length() - 1))) {
        return null;
      }
      String[] lines = text.substring(0, crcAt).split("\n");
      if (lines.length < 1 || !lines[0].equals(MAGIC)) {
        return null;
      }
      Map<String, String> fields = new HashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int eq = lines[i].indexOf('=');
        if (eq <= 0) {
          return null;
        }
        fields.put(lines[i].substring(0, eq), lines[i].substring(eq + 1));
      }
      String key = new String(HEX.parseHex(fields.get("key")), UTF_8);
      if (!key.equals(expectedKey)) {
        return null;
      }
      FileIdentity identity =
          new FileIdentity(
              Long.parseLong(fields.get("size")),
              fields.get("modified"),
              new String(HEX.parseHex(fields.get("file")), UTF_8));
      return new Sidecar(
          key, Long.parseLong(fields.get("generation")), identity, Instant.parse(fields.get("written")));
    } catch (RuntimeException corrupt) {
      // A missing field (NullPointerException), bad hex or number: the sidecar is unusable and the
      // caller repairs it, exactly as if it were missing.
      return null;
    }
  }
}
