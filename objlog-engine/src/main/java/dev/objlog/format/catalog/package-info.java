/**
 * catformat v1: the catalog's head and page objects as pure bytes, no I/O.
 *
 * <p><b>Owns</b>: the value types ({@link dev.objlog.format.catalog.Head}, {@link
 * dev.objlog.format.catalog.LeafPage}, {@link dev.objlog.format.catalog.IndexPage}, {@link
 * dev.objlog.format.catalog.LeafEntry}, {@link dev.objlog.format.catalog.IndexEntry}), their
 * encoding and decoding ({@link dev.objlog.format.catalog.CatalogCodec}), every validation rule of
 * the format including the check of a child page against the reference that led to it, the size
 * formulas and page id derivation ({@link dev.objlog.format.catalog.CatalogFormat}) and the reader
 * traversal order of a head's roots.
 *
 * <p><b>Does not own</b>: reading or writing objects, object keys ({@code format.key}), the
 * catalog engine's state transitions (append with carry/cascade, fence, retention trim) or
 * lookups, which live in {@code dev.objlog.internal.catalog}.
 *
 * <p><b>Invariants</b>: every value type is immutable; every encoded object passes the same rules
 * its decoder applies, so {@code decode(encode(x)).equals(x)} and {@code encode(decode(b))} is
 * byte-identical to {@code b}; all u64 fields (LSNs up to 2^64−2, epochs and generations up to
 * 2^64−1) are compared unsigned.
 *
 * <p><b>Error contract</b>: all failures are terminal for the bytes or values at hand — retrying
 * cannot help. Decoders throw {@link dev.objlog.CorruptObjectException} for any broken rule,
 * {@link dev.objlog.UnsupportedVersionException} for an unknown version, hash algorithm or
 * segment layout, and {@link dev.objlog.IntegrityException} for a hash mismatch or an object that
 * does not match its expected identity or parent reference. Encoders throw {@link
 * dev.objlog.InvalidArgumentException}. Decoders never allocate beyond counts they have validated
 * and never let a JDK runtime exception escape on hostile bytes.
 */
@NullMarked
package dev.objlog.format.catalog;

import org.jspecify.annotations.NullMarked;
