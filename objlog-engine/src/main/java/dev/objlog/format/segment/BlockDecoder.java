package dev.objlog.format.segment;

import static dev.objlog.format.segment.SegmentFormat.MAX_HEADER_KEY_LEN;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADERS;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_HEADER_BYTES;
import static dev.objlog.format.segment.SegmentFormat.MAX_RECORD_VALUE_LEN;
import static dev.objlog.format.segment.SegmentFormat.RECORD_ENVELOPE_SIZE;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;
import dev.objlog.CorruptObjectException;
import dev.objlog.IntegrityException;
import dev.objlog.format.HashAlgorithm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns a block's stored bytes into records: hash check first (so corrupt input never reaches the
 * decompressor), then decompression into a buffer of exactly {@code raw_size} bytes, then the record
 * rules of §1.7. Stateless: each zstd call gets its own native context, which keeps readers free of
 * native resources to close and safe to share; a context costs far less than a block's decompression.
 */
final class BlockDecoder {
  private BlockDecoder() {}

  /**
   * Decodes the stored bytes {@code b[at, at + info.storedSize())} of a block whose fields are
   * already validated (so sizes are within the format's caps).
   */
  static List<SegmentRecord> decode(
      BlockInfo info, Codec codec, HashAlgorithm hash, byte[] b, int at) {
    return decode(info, codec, hash, b, at, null);
  }

  /**
   * As {@link #decode(BlockInfo, Codec, HashAlgorithm, byte[], int)}, decompressing into {@code
   * scratch} when it is large enough. Safe to reuse across blocks because records copy their bytes
   * out; saves allocating and zeroing up to 16 MiB per block on sequential scans.
   */
  static List<SegmentRecord> decode(
      BlockInfo info, Codec codec, HashAlgorithm hash, byte[] b, int at, byte @Nullable [] scratch) {
    int stored = (int) info.storedSize();
    if (at < 0 || b.length - at < stored) {
      throw Layout.corrupt("block at " + info.offset() + " is truncated");
    }
    long actual = hash.hash(b, at, stored);
    if (actual != info.blockHash()) {
      throw new IntegrityException("segment: block at " + info.offset() + ": block_hash "
          + Bytes.hex64(info.blockHash()) + " != computed " + Bytes.hex64(actual));
    }
    byte[] raw;
    int rawAt;
    if (codec == Codec.NONE) {
      raw = b;
      rawAt = at;
    } else {
      raw = decompress(info, b, at, stored, scratch);
      rawAt = 0;
    }
    return parseRecords(info, raw, rawAt, (int) info.rawSize());
  }

  private static byte[] decompress(
      BlockInfo info, byte[] b, int at, int stored, byte @Nullable [] scratch) {
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
      byte[] raw = scratch != null && scratch.length >= rawSize ? scratch : new byte[rawSize];
      long n = Zstd.decompressByteArray(raw, 0, rawSize, b, at, stored);
      if (n != rawSize) {
        throw Layout.corrupt("block at " + info.offset() + ": decompressed " + n
            + " bytes, raw_size " + rawSize);
      }
      return raw;
    } catch (ZstdException e) {
      throw new CorruptObjectException(
          "segment: block at " + info.offset() + ": invalid zstd frame: " + e.getMessage(), e);
    }
  }

  /** Parses exactly {@code recordCount} records filling exactly {@code len} bytes (§1.7). */
  static List<SegmentRecord> parseRecords(BlockInfo info, byte[] b, int at, int len) {
    int count = (int) info.recordCount();
    List<SegmentRecord> records = new ArrayList<>(count);
    int pos = at;
    int end = at + len;
    long lsn = info.baseLsn();
    long previousTs = info.minTimestampMs();
    for (int i = 0; i < count; i++, lsn++) {
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
      if (ts > info.maxTimestampMs()) {
        throw recordError(info, i, "timestamp " + ts + " exceeds the block's max_timestamp_ms");
      }
      previousTs = ts;
      List<RecordHeader> headers =
          headersLen == 0 ? List.of() : parseHeaders(b, pos, (int) headersLen, info, i);
      pos += (int) headersLen;
      byte[] value = Arrays.copyOfRange(b, pos, pos + (int) valueLen);
      pos += (int) valueLen;
      records.add(new SegmentRecord(lsn, ts, headers, value));
    }
    if (pos != end) {
      throw Layout.corrupt("block at " + info.offset() + ": " + (end - pos)
          + " bytes left after record_count records");
    }
    return records;
  }

  /** Built only on failure: message formatting per record would cost more than decoding it. */
  private static CorruptObjectException recordError(BlockInfo info, int record, String message) {
    return Layout.corrupt("block at " + info.offset() + " record " + record + ": " + message);
  }

  private static List<RecordHeader> parseHeaders(byte[] b, int at, int len, BlockInfo info, int record) {
    if (len < 2) {
      throw recordError(info, record, "headers area too short for a count");
    }
    int count = Bytes.u16(b, at);
    if (count == 0 || count > MAX_RECORD_HEADERS) {
      throw recordError(info, record, "header_count " + count + " outside 1.." + MAX_RECORD_HEADERS);
    }
    RecordHeader[] headers = new RecordHeader[count];
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
      byte[] key = Arrays.copyOfRange(b, pos, pos + keyLen);
      pos += keyLen;
      byte[] value = Arrays.copyOfRange(b, pos, pos + valueLen);
      pos += valueLen;
      headers[i] = new RecordHeader(key, value);
    }
    if (pos != end) {
      throw recordError(info, record, (end - pos) + " bytes left in the headers area");
    }
    return List.of(headers);
  }
}
