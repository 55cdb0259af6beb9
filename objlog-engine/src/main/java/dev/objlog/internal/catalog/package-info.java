/**
 * The catalog engine: writer takeover, partition initialization, group-committed appends with
 * carry/cascade into immutable pages, lookups by LSN and timestamp, listing, full tree
 * verification, and the head and page caches. Internal.
 *
 * <p><b>Owns</b>: the state transitions of a head (FORMAT.md §2.8–2.10, including the
 * copy-on-write retention trim) computed in memory
 * ({@code CatalogMutations}); the commit protocol around them (pages create-only first, then one
 * head compare-and-swap, then reconciliation of conflicting or ambiguous answers, PROTOCOLS.md
 * §5.1–5.2) in {@link dev.objlog.internal.catalog.PartitionCatalog} and {@link
 * dev.objlog.internal.catalog.FencedSession}; tree walks (§2.11, §2.12); a store-wide decoded
 * page cache and head cache ({@link dev.objlog.internal.catalog.CatalogStore}); conversion to
 * the public {@link dev.objlog.PartitionHead} and {@link dev.objlog.SegmentRef}.
 *
 * <p><b>Does not own</b>: bytes (format.catalog), keys (format.key), transport and store retries
 * (store adapters), segment files, the writer's batching and ordering (it hands the session
 * groups of finalized segments), reader freshness policy, the retention mailbox
 * ({@code internal.retention}), garbage collection ({@code lifecycle}).
 *
 * <p><b>Invariants</b>: nothing is written for a publish until every page and the head it builds
 * encode and pass the format's rules; all pages are stored before the head swap, so a crash
 * leaves only unreachable pages; one publish is exactly one generation step however many
 * segments it carries, and every page it seals carries that generation; a session only swaps
 * against the token of the head it last committed, so a superseded writer cannot write behind its
 * successor; every head and page is validated (and pages checked against their reference) before
 * use; all u64 values are compared unsigned; cached pages are immutable and keyed by object keys
 * that embed their content hash.
 *
 * <p><b>Error contract</b>: precondition failures ({@link dev.objlog.InvalidArgumentException},
 * {@link dev.objlog.TimestampOrderException}, {@link
 * dev.objlog.internal.catalog.CatalogConflictException} for a wrong base LSN, {@link
 * dev.objlog.internal.catalog.CatalogExhaustedException}) write nothing. {@link
 * dev.objlog.store.TransientStoreException} from a publish or takeover means "definitely not
 * done, retry". Terminal: {@link dev.objlog.StaleWriterException} (fence moved), {@link
 * dev.objlog.internal.catalog.CatalogConflictException} from a compare-and-swap (another segment
 * owns the range), {@link dev.objlog.internal.catalog.InvalidPublishResultException} (engine
 * bug), {@link dev.objlog.CorruptObjectException} (bad bytes). Maybe committed: {@link
 * dev.objlog.CommitIndeterminateException} (publish) and {@link
 * dev.objlog.internal.catalog.FenceIndeterminateException} (takeover) — never mint a different
 * segment for a range that may be committed. A retention apply with an unknown outcome is the
 * exception: it is remembered and settled (by reading the head back) before the session's next
 * change, because retention is idempotent and carries no new data.
 */
@NullMarked
package dev.objlog.internal.catalog;

import org.jspecify.annotations.NullMarked;
