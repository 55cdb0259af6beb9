package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.MAX_HEADER_KEY_LEN;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADERS;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADER_BYTES;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_VALUE_LEN;
import static dev.objlog.format.segment.SegmentFormat.RECORD_ENVELOPE_SIZE;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.format.HashAlgorithm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns a block's stored bytes into records in three steps, each usable on its own so that the
 * copying ({@link #decode}) and the zero-copy ({@link RecordCursor}) paths run the very same checks:
 * {@link #checkStored} (bounds and hash, so corrupt input never reaches the decompressor), {@link
 * #decompress} (into a buffer of at least {@code raw_size} bytes, with a caller's reused zstd context
 * or a one-shot one), and {@link #validateRecords} (every record rule of §1.7, allocation-free).
 * Only after all three does anything read a record, and then without re-checking ({@link
 * #materialize}, {@link #readHeaders}).
 */
final class BlockDecoder {
  private BlockDecoder() {}

  /**
   * Decodes the stored bytes {@code b[at, at + info.storedSize())} of a block whose fields are
   * already validated (so sizes are within the format's caps), copying every record out.
   */
  static List<SegmentRecord> decode(
      BlockInfo info, Codec codec, HashAlgorithm hash, byte[] b, int at) {
    checkStored(info, hash, b, at);
    int rawSize = (int) info.rawSize();
    if (codec == Codec.NONE) {
      validateRecords(info, b, at, rawSize);
      return materialize(info, b, at);
    }
    byte[] raw = new byte[rawSize];
    decompress(info, b, at, raw, null);
    validateRecords(info, raw, 0, rawSize);
    return materialize(info, raw, 0);
  }

  /**
   * Checks that the stored bytes {@code b[at, at + stored_size)} are present and hash to
   * block_hash. Must pass before the bytes go anywhere else.
   */
  static void checkStored(BlockInfo info, HashAlgorithm hash, byte[] b, int at) {
    int stored = (int) info.storedSize();
    if (at < 0 || b.length - at < stored) {
      throw Layout.corrupt("block at " + info.offset() + " is truncated");
    }
    long actual = hash.hash(b, at, stored);
    if (actual != info.blockHash()) {
      throw new IntegrityException("segment: block at " + info.offset() + ": block_hash "
          + Bytes.hex64(info.blockHash()) + " != computed " + Bytes.hex64(actual));
    }
  }

  /**
   * Decompresses the checked zstd frame {@code b[at, at + stored_size)} into {@code out[0,
   * raw_size)}. {@code out} must hold at least raw_size bytes; only raw_size are offered to the
   * decompressor, so a frame that inflates further fails instead of writing past them. With a
   * context the caller's native state is reused (it must not be shared between threads); without,
   * zstd creates and frees one for this call.
   */
  static void decompress(
      BlockInfo info, byte[] b, int at, byte[] out, @Nullable ZstdDecompressCtx ctx) {
    int stored = (int) info.storedSize();
    int rawSize = (int) info.rawSize();
    try {
      // A block is exactly one frame; trailing bytes (a second frame, skippable frames, garbage)
      // would be silently concatenated by the one-shot decoder.
      long frameSize = Zstd.findFrameCompressedSize(b, at, stored);
      if (frameSize != stored) {
        throw Layout.corrupt("block at " + info.offset() + ": zstd frame is " + frameSize
            + " bytes, stored_size " + stored);
      }
      long declared = Zstd.getFrameContentSize(b, at, stored);
      if (declared >= 0 && declared != rawSize) {
        throw Layout.corrupt("block at " + info.offset() + ": zstd frame declares " + declared
            + " bytes, raw_size " + rawSize);
      }
      // Output is sized from the validated raw_size (<= 16 MiB), never from the frame: frames
      // without a content size are legal, and one-shot decoding into a flat buffer allocates no
      // window, so memory stays bounded by raw_size whatever the frame header claims.
      long n = ctx != null
          ? ctx.decompressByteArray(out, 0, rawSize, b, at, stored)
          : Zstd.decompressByteArray(out, 0, rawSize, b, at, stored);
      if (n != rawSize) {
        throw Layout.corrupt("block at " + info.offset() + ": decompressed " + n
            + " bytes, raw_size " + rawSize);
      }
    } catch (ZstdException e) {
      throw new CorruptObjectException(
          "segment: block at " + info.offset() + ": invalid zstd frame: " + e.getMessage(), e);
    }
  }

  /**
   * Checks every record rule of §1.7 over the raw content {@code b[at, at + len)}: exactly
   * record_count records filling exactly {@code len} bytes, each with headers_len and value_len
   * within their caps and inside the block, a well-formed headers area, and timestamps
   * non-decreasing within {@code [min_ts, max_ts]}. Allocates nothing unless it throws.
   */
  static void validateRecords(BlockInfo info, byte[] b, int at, int len) {
    int count = (int) info.recordCount();
    int pos = at;
    int end = at + len;
    long previousTs = info.minTimestampMs();
    long maxTs = info.maxTimestampMs();
    for (int i = 0; i < count; i++) {
      if (end - pos < RECORD_ENVELOPE_SIZE) {
        throw recordError(info, i, "truncated envelope");
      }
      long ts = Bytes.u64(b, pos);
      long headersLen = Bytes.u32(b, pos + 8);
      long valueLen = Bytes.u32(b, pos + 12);
      pos += RECORD_ENVELOPE_SIZE;
      if (headersLen > MAX_RECORD_HEADER_BYTES) {
        throw recordError(info, i, "headers_len " + headersLen + " exceeds " + MAX_RECORD_HEADER_BYTES);
      }
      if (valueLen > MAX_RECORD_VALUE_LEN) {
        throw recordError(info, i, "value_len " + valueLen + " exceeds " + MAX_RECORD_VALUE_LEN);
      }
      if (end - pos < headersLen + valueLen) {
        throw recordError(info, i, "headers and value overrun the block");
      }
      if (ts < previousTs) {
        throw recordError(info, i, "timestamp " + ts + " precedes "
            + (i == 0 ? "the block's min_timestamp_ms" : "the previous record"));
      }
      if (ts > maxTs) {
        throw recordError(info, i, "timestamp " + ts + " exceeds the block's max_timestamp_ms");
      }
      previousTs = ts;
      if (headersLen != 0) {
        validateHeaders(b, pos, (int) headersLen, info, i);
      }
      pos += (int) (headersLen + valueLen);
    }
    if (pos != end) {
      throw Layout.corrupt("block at " + info.offset() + ": " + (end - pos)
          + " bytes left after record_count records");
    }
  }

  /** Built only on failure: message formatting per record would cost more than decoding it. */
  private static CorruptObjectException recordError(BlockInfo info, int record, String message) {
    return Layout.corrupt("block at " + info.offset() + " record " + record + ": " + message);
  }

  private static void validateHeaders(byte[] b, int at, int len, BlockInfo info, int record) {
    if (len < 2) {
      throw recordError(info, record, "headers area too short for a count");
    }
    int count = Bytes.u16(b, at);
    if (count == 0 || count > MAX_RECORD_HEADERS) {
      throw recordError(info, record, "header_count " + count + " outside 1.." + MAX_RECORD_HEADERS);
    }
    int pos = at + 2;
    int end = at + len;
    for (int i = 0; i < count; i++) {
      if (end - pos < 4) {
        throw recordError(info, record, "header " + i + ": truncated lengths");
      }
      int keyLen = Bytes.u16(b, pos);
      int valueLen = Bytes.u16(b, pos + 2);
      pos += 4;
      if (keyLen == 0 || keyLen > MAX_HEADER_KEY_LEN) {
        throw recordError(info, record, "header " + i + ": key_len " + keyLen + " outside 1.."
            + MAX_HEADER_KEY_LEN);
      }
      if (end - pos < keyLen + valueLen) {
        throw recordError(info, record, "header " + i + ": key and value overrun the headers area");
      }
      pos += keyLen + valueLen;
    }
    if (pos != end) {
      throw recordError(info, record, (end - pos) + " bytes left in the headers area");
    }
  }

  /** Copies out every record of raw content that {@link #validateRecords} accepted. */
  static List<SegmentRecord> materialize(BlockInfo info, byte[] b, int at) {
    int count = (int) info.recordCount();
    List<SegmentRecord> records = new ArrayList<>(count);
    int pos = at;
    long lsn = info.baseLsn();
    for (int i = 0; i < count; i++, lsn++) {
      long ts = Bytes.u64(b, pos);
      int headersLen = Bytes.i32(b, pos + 8);
      int valueLen = Bytes.i32(b, pos + 12);
      pos += RECORD_ENVELOPE_SIZE;
      List<RecordHeader> headers = headersLen == 0 ? List.of() : readHeaders(b, pos);
      pos += headersLen;
      records.add(new SegmentRecord(lsn, ts, headers, Arrays.copyOfRange(b, pos, pos + valueLen)));
      pos += valueLen;
    }
    return records;
  }

  /** Copies out the headers of a validated, non-empty headers area starting at {@code at}. */
  static List<RecordHeader> readHeaders(byte[] b, int at) {
    int count = Bytes.u16(b, at);
    RecordHeader[] headers = new RecordHeader[count];
    int pos = at + 2;
    for (int i = 0; i < count; i++) {
      int keyLen = Bytes.u16(b, pos);
      int valueLen = Bytes.u16(b, pos + 2);
      pos += 4;
      byte[] key = Arrays.copyOfRange(b, pos, pos + keyLen);
      pos += keyLen;
      byte[] value = Arrays.copyOfRange(b, pos, pos + valueLen);
      pos += valueLen;
      headers[i] = new RecordHeader(key, value);
    }
    return List.of(headers);
  }
}
