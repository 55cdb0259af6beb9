/**
 * segformat v2: the bytes of a segment object (FORMAT.md §1), encoded and decoded in memory.
 *
 * <p><b>Owns:</b> the streaming {@link dev.objlog.format.segment.SegmentEncoder} (records in, bytes
 * out in file order, Go-identical block sealing) and its three parts for pipelined writers: {@link
 * dev.objlog.format.segment.RawBlockBuilder} (record rules, framing, block boundaries), {@link
 * dev.objlog.format.segment.BlockSealer} (compression, block hash and preamble of one block,
 * independent of its neighbours) and {@link dev.objlog.format.segment.SegmentAssembler} (sealed
 * blocks placed in order, index, segment hash, trailer); the ranged-read {@link
 * dev.objlog.format.segment.SegmentReader} (trailer, preamble, index, then one block at a time; seek
 * by LSN and by timestamp; records copied out or read in place through a {@link
 * dev.objlog.format.segment.RecordCursor}, whose zstd context and buffers a {@link
 * dev.objlog.format.segment.DecodeContext} keeps between blocks), the index-free {@link
 * dev.objlog.format.segment.SequentialSegmentReader},
 * and the value types of records, blocks, preamble, trailer and the catalog's expected {@link
 * dev.objlog.format.segment.SegmentRef}.
 *
 * <p><b>Does not own:</b> I/O (callers supply a {@link dev.objlog.format.segment.SegmentSink} and a
 * {@link dev.objlog.format.segment.RangeReader}), object keys, the catalog, caching, retries,
 * threads (parallel sealing is the caller's: the parts are pure and single-threaded), or choosing
 * segment ids and clocks (callers pass them in).
 *
 * <p><b>Invariants:</b> integers are big-endian; LSNs, offsets, sizes and hashes are unsigned 64-bit
 * values in {@code long}s and are compared with {@link java.lang.Long#compareUnsigned}; no record
 * ever carries LSN 2^64−1. An encoder emits every byte exactly once, in order; for codec none its
 * output equals the Go writer's byte for byte, and so does the builder → sealers → assembler path,
 * whatever order or threads the blocks were sealed in. A decoder returns a record only after its
 * block passed every rule of §1 (hash checked before decompression), and never allocates beyond
 * sizes it has validated against the format's caps (index ≤ {@code maxIndexBytes}, block fetch ≤
 * 64 B + 20 MiB, decompressed block ≤ 16 MiB).
 *
 * <p><b>Error contract:</b> all failures are {@link dev.objlog.ObjlogException}s and all are
 * terminal for the input that caused them: {@link dev.objlog.CorruptObjectException} for bytes that
 * break a rule, {@link dev.objlog.IntegrityException} for hash mismatches and for an object that is
 * not the one its reference describes, {@link dev.objlog.UnsupportedVersionException} for unknown
 * versions, codecs and hash algorithms, {@link dev.objlog.InvalidArgumentException} for encoder input
 * that breaks a rule (nothing is written for it). No JDK or zstd runtime exception escapes a decoder
 * on hostile bytes. Exceptions from caller-supplied sinks and range readers propagate unchanged;
 * they are the only retryable ones (retry with a fresh encoder or reader).
 */
@NullMarked
package dev.objlog.format.segment;

import org.jspecify.annotations.NullMarked;
