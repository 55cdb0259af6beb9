/**
 * Key layout v1: how objlog names objects in a bucket.
 *
 * <p><b>Owns</b>: canonical stream ids ({@link dev.objlog.format.key.StreamIds}), the stream key
 * and bucket shard, the provider prefixes and data-root key ({@link
 * dev.objlog.format.key.KeyPrefixes}), and builders and parsers for every key of one partition
 * ({@link dev.objlog.format.key.PartitionKeys}): head, leaf and index pages, retention mailbox, GC
 * state, segments and staging objects.
 *
 * <p><b>Does not own</b>: the contents of those objects ({@code format.catalog}, {@code
 * format.segment}), listing or any other I/O, and our own extension objects (snapshot marker,
 * consumer checkpoints, leases), which are named where they are implemented.
 *
 * <p><b>Invariants</b>: builders and parsers are inverse: every key a builder produces parses back
 * to the same values, and a parser accepts only keys a builder could have produced (exact widths,
 * decimal digits, lowercase hex). The bucket and stream key match the reference implementation's
 * golden vectors byte for byte.
 *
 * <p><b>Error contract</b>: terminal, never retryable. An invalid stream id or a value the layout
 * cannot express is an {@link dev.objlog.InvalidArgumentException} whose message says what to
 * change; a key read back from a bucket that does not fit the grammar is a {@link
 * dev.objlog.CorruptObjectException}.
 */
@NullMarked
package dev.objlog.format.key;

import org.jspecify.annotations.NullMarked;
