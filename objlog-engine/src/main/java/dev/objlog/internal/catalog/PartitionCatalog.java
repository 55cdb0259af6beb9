package dev.objlog.internal.catalog;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.IntegrityException;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.IndexEntry;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.ParsedKey;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The catalog of one stream partition: its head, writer takeover, partition initialization, and
 * the read-side lookups (FORMAT.md §2.7–2.12, PROTOCOLS.md §5.1–5.4).
 *
 * <p>Lookups take the head to read from as an argument, so a reader decides how fresh it must be
 * (cached, {@link #refreshHead()} with a conditional GET, or {@link #loadHead()}) and a whole
 * read works against one consistent head. Pages come through the store-wide page cache and are
 * checked against the reference that led to them.
 *
 * <p>Thread-safety: safe for concurrent use. Writes go through {@link FencedSession}s, which
 * serialise their own commits; several sessions of one partition are fenced by the head.
 */
public final class PartitionCatalog {
  private final CatalogStore owner;
  private final ObjectStore store;
  private final CatalogOptions options;
  private final PartitionKeys keys;
  private final CatalogIdentity identity;
  private final String headKey;
  private final CatalogTree tree;

  PartitionCatalog(CatalogStore owner, PartitionKeys keys, CatalogIdentity identity) {
    this.owner = owner;
    this.store = owner.objectStore();
    this.options = owner.options();
    this.keys = keys;
    this.identity = identity;
    this.headKey = keys.head();
    this.tree = new CatalogTree(store, keys, identity, owner.pageCache());
  }

  public PartitionKeys keys() {
    return keys;
  }

  public CatalogIdentity identity() {
    return identity;
  }

  public String headKey() {
    return headKey;
  }

  CatalogOptions options() {
    return options;
  }

  ObjectStore store() {
    return store;
  }

  // ---------------------------------------------------------------- heads

  /**
   * Reads and validates the head (one GET), and caches it for readers.
   *
   * @return empty if the partition has no head yet
   * @throws CorruptObjectException if the head is invalid or belongs to another partition,
   *     stream or data root
   */
  public Optional<HeadSnapshot> loadHead() {
    StoredObject object;
    try {
      object = store.get(headKey);
    } catch (ObjectNotFoundException e) {
      owner.headCache().invalidate(headKey);
      return Optional.empty();
    }
    HeadSnapshot snapshot = new HeadSnapshot(decodeHead(object.bytes()), object.token());
    cache(snapshot);
    return Optional.of(snapshot);
  }

  /**
   * The cached head brought up to date with a conditional GET: an unchanged head transfers no
   * body. Without a cached head this is {@link #loadHead()}.
   */
  public Optional<HeadSnapshot> refreshHead() {
    HeadSnapshot cached = owner.headCache().getIfPresent(headKey);
    if (cached == null) {
      return loadHead();
    }
    ConditionalGetResult result = store.getIfChanged(headKey, cached.token());
    if (result instanceof ConditionalGetResult.Unchanged) {
      return Optional.of(cached);
    }
    if (result instanceof ConditionalGetResult.Changed changed) {
      StoredObject object = changed.object();
      HeadSnapshot snapshot = new HeadSnapshot(decodeHead(object.bytes()), object.token());
      cache(snapshot);
      return Optional.of(snapshot);
    }
    owner.headCache().invalidate(headKey);
    return Optional.empty();
  }

  /** The head last loaded, refreshed or committed through this store, without any I/O. */
  public Optional<HeadSnapshot> cachedHead() {
    return Optional.ofNullable(owner.headCache().getIfPresent(headKey));
  }

  void cache(HeadSnapshot snapshot) {
    owner.headCache().put(headKey, snapshot);
  }

  Head decodeHead(byte[] bytes) {
    return CatalogCodec.decodeHead(bytes, identity);
  }

  /** The head a partition without {@code head.plc} behaves as: empty, no writer, next LSN 0. */
  private HeadSnapshot loadHeadOrEmpty() {
    return loadHead()
        .orElseGet(() -> new HeadSnapshot(CatalogMutations.emptyHead(identity, options, 0),
            VersionToken.ABSENT));
  }

  /**
   * Creates an empty head at {@code nextLsn} (generation 0, no writer) if the partition has none
   * (FORMAT.md §2.9). If a head exists, it is validated and returned unchanged.
   *
   * @throws InvalidArgumentException if {@code nextLsn} is 2^64−1
   * @throws TransientStoreException if the store kept failing; nothing or an identical head was
   *     written, so calling again is safe
   */
  public InitializeResult initializePartition(long nextLsn) {
    Head empty = CatalogMutations.emptyHead(identity, options, nextLsn);
    byte[] bytes = CatalogCodec.encodeHead(empty);
    StoreException lastErr = null;
    for (int attempt = 1; attempt <= options.publishAttempts(); attempt++) {
      try {
        CasResult result = store.compareAndSwap(headKey, VersionToken.ABSENT, bytes);
        if (result instanceof CasResult.Swapped swapped) {
          HeadSnapshot snapshot = new HeadSnapshot(empty, swapped.token());
          cache(snapshot);
          return new InitializeResult(snapshot, true);
        }
        StoredObject current = ((CasResult.Conflict) result).current();
        if (current != null) {
          return existing(current, empty, bytes);
        }
      } catch (IndeterminateStoreException | TransientStoreException e) {
        lastErr = e;
      }
      if (attempt < options.publishAttempts()
          && !pause(options.publishInitialBackoff(), options.publishMaxBackoff(), attempt)) {
        break;
      }
    }
    try {
      StoredObject current = store.get(headKey);
      return existing(current, empty, bytes);
    } catch (ObjectNotFoundException e) {
      throw new TransientStoreException("catalog: could not create the head of partition "
          + Integer.toUnsignedString(identity.partition()) + "; nothing was written", false,
          lastErr != null ? lastErr : e);
    }
  }

  private InitializeResult existing(StoredObject current, Head empty, byte[] bytes) {
    if (Arrays.equals(current.bytes(), bytes)) {
      HeadSnapshot snapshot = new HeadSnapshot(empty, current.token());
      cache(snapshot);
      return new InitializeResult(snapshot, true);
    }
    HeadSnapshot snapshot = new HeadSnapshot(decodeHead(current.bytes()), current.token());
    cache(snapshot);
    return new InitializeResult(snapshot, false);
  }

  /**
   * Takes the partition over for {@code writerId} (PROTOCOLS.md §5.1): loads the head (a missing
   * head counts as empty), then compare-and-swaps epoch + 1, generation + 1 and the writer id,
   * rebasing on whatever head a conflict returns. A conflict whose returned head is this very
   * candidate (a retry after a lost reply) is a success; after the attempts run out the head is
   * read back, and a head carrying this writer id at the attempted epoch is a success too.
   *
   * @throws InvalidArgumentException if {@code writerId} is zero
   * @throws CatalogExhaustedException if the epoch or generation cannot be incremented
   * @throws CatalogConflictException if the head kept changing for every attempt
   * @throws FenceIndeterminateException if the outcome is unknown because the head could not be
   *     read back
   * @throws TransientStoreException if the store kept failing and the read-back shows the fence
   *     was not taken; calling again is safe
   */
  public FencedSession takeover(Id128 writerId) {
    if (writerId.isZero()) {
      throw new InvalidArgumentException("a writer id must not be all zero");
    }
    HeadSnapshot current = loadHeadOrEmpty();
    Head head = current.head();
    VersionToken token = current.token();
    StoreException lastErr = null;
    long attemptedEpoch = 0;
    int attempts = options.fenceAttempts();
    for (int attempt = 1; attempt <= attempts; attempt++) {
      Head candidate = CatalogMutations.takeover(head, writerId);
      byte[] bytes = CatalogCodec.encodeHead(candidate);
      attemptedEpoch = candidate.writerEpoch();
      try {
        CasResult result = store.compareAndSwap(headKey, token, bytes);
        if (result instanceof CasResult.Swapped swapped) {
          return session(writerId, candidate, bytes, swapped.token());
        }
        StoredObject observed = ((CasResult.Conflict) result).current();
        if (observed == null) {
          head = CatalogMutations.emptyHead(identity, options, 0);
          token = VersionToken.ABSENT;
        } else if (Arrays.equals(observed.bytes(), bytes)) {
          return session(writerId, candidate, bytes, observed.token());
        } else {
          head = decodeHead(observed.bytes());
          token = observed.token();
          if (head.writerEpoch() == attemptedEpoch && head.writerId().equals(writerId)) {
            return session(writerId, head, observed.bytes(), token);
          }
        }
        lastErr = null;
      } catch (IndeterminateStoreException | TransientStoreException e) {
        lastErr = e;
      }
      if (attempt < attempts
          && !pause(options.fenceInitialBackoff(), options.fenceMaxBackoff(), attempt)) {
        break;
      }
    }
    Optional<HeadSnapshot> observed;
    try {
      observed = loadHead();
    } catch (StoreException e) {
      if (lastErr != null) {
        e.addSuppressed(lastErr);
      }
      throw new FenceIndeterminateException("catalog: takeover of partition "
          + Integer.toUnsignedString(identity.partition()) + " by writer " + writerId
          + " has an unknown outcome: the head could not be read back", e);
    }
    if (observed.isPresent()) {
      Head now = observed.get().head();
      if (now.writerEpoch() == attemptedEpoch && now.writerId().equals(writerId)) {
        return session(writerId, now, CatalogCodec.encodeHead(now), observed.get().token());
      }
    }
    if (lastErr != null) {
      throw new TransientStoreException("catalog: takeover of partition "
          + Integer.toUnsignedString(identity.partition()) + " failed after " + attempts
          + " attempts; the head shows the fence was not taken", false, lastErr);
    }
    throw new CatalogConflictException("catalog: takeover of partition "
        + Integer.toUnsignedString(identity.partition()) + " lost " + attempts
        + " compare-and-swap races in a row");
  }

  private FencedSession session(Id128 writerId, Head head, byte[] bytes, VersionToken token) {
    cache(new HeadSnapshot(head, token));
    return new FencedSession(this, writerId, head, bytes, token);
  }

  /**
   * Stores sealed pages create-only before a head commit. An existing object with the same bytes
   * is the page itself (a retry after a lost reply); different bytes under a content-derived key
   * mean the bucket holds something that is not our page.
   *
   * @throws TransientStoreException if the store kept failing; no head was changed
   * @throws IntegrityException if a page key holds different bytes
   */
  void putPages(List<Mutation.PageObject> pages) {
    putPages(pages, options.publishAttempts());
  }

  /** As {@link #putPages(List)}, with at most {@code attempts} tries of each page write. */
  void putPages(List<Mutation.PageObject> pages, int attempts) {
    for (Mutation.PageObject page : pages) {
      putPage(page.key(), page.page().bytes(), attempts);
    }
  }

  private void putPage(String key, byte[] bytes, int attempts) {
    StoreException lastErr = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try {
        if (store.putIfAbsent(key, bytes) instanceof CreateResult.Created) {
          return;
        }
        if (Arrays.equals(store.get(key).bytes(), bytes)) {
          return;
        }
        throw new IntegrityException("catalog: page key " + key
            + " already holds different bytes; the bucket is not what this catalog wrote");
      } catch (IndeterminateStoreException | TransientStoreException e) {
        lastErr = e;
      }
      if (attempt < attempts
          && !pause(options.publishInitialBackoff(), options.publishMaxBackoff(), attempt)) {
        break;
      }
    }
    throw new TransientStoreException("catalog: could not store page " + key + " after "
        + attempts + " attempts; the head was not changed", false, lastErr);
  }

  /** Sleeps the backoff; false if interrupted (the interrupt flag is restored). */
  boolean pause(Duration initial, Duration max, int attempt) {
    try {
      options.sleeper().sleep(CatalogOptions.backoff(initial, max, attempt));
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  // ---------------------------------------------------------------- reads

  /**
   * The segment containing {@code lsn} under {@code head}: head + one GET per level when cold,
   * none when the pages are cached. Empty when {@code lsn} is below {@code head.oldestLsn()}
   * (the caller raises {@link dev.objlog.LsnExpiredException}), at or beyond {@code
   * head.nextLsn()}, or the partition is empty.
   *
   * @throws ObjectNotFoundException if a referenced page is missing (refresh the head and retry)
   * @throws CorruptObjectException if a page is invalid or does not match its reference
   */
  public Optional<LeafEntry> findSegment(Head head, long lsn) {
    return tree.findSegment(head, lsn);
  }

  /**
   * The earliest reachable segment whose last timestamp is at or after {@code timestampMs}
   * (the reader then seeks inside it), or empty if none is that recent.
   *
   * @throws ObjectNotFoundException if a referenced page is missing
   * @throws CorruptObjectException if a page is invalid or does not match its reference
   */
  public Optional<LeafEntry> findSegmentByTimestamp(Head head, long timestampMs) {
    return tree.findSegmentByTimestamp(head, timestampMs);
  }

  /**
   * Up to {@code limit} segments (≤ 0 means 128; at most 1024) from the one containing {@code
   * fromLsn}, and where the next page starts.
   *
   * @throws ObjectNotFoundException if a referenced page is missing
   * @throws CorruptObjectException if a page is invalid or does not match its reference
   */
  public SegmentListing listSegments(Head head, long fromLsn, int limit) {
    return tree.listSegments(head, fromLsn, limit);
  }

  /**
   * Verifies the whole tree under {@code head} against FORMAT.md §2.12, reading every page from
   * the store (bypassing the cache).
   *
   * @throws CorruptObjectException describing the first broken rule and where
   */
  public TreeReport verifyTree(Head head) {
    return tree.verifyTree(head);
  }

  /** {@link #verifyTree(Head)}, telling {@code visitor} of each page and segment once it passed. */
  public TreeReport verifyTree(Head head, TreeVisitor visitor) {
    return tree.verifyTree(head, visitor);
  }

  /**
   * The page {@code reference} points to, through the page cache, checked against the reference.
   *
   * @throws ObjectNotFoundException if the page is missing
   * @throws CorruptObjectException if the page is invalid or does not match its reference
   */
  DecodedPage loadChild(IndexEntry reference, long parentWriterEpoch) {
    return tree.loadChild(reference, parentWriterEpoch);
  }

  /**
   * Whether the page stored under {@code pageKey} is part of the tree under {@code head}: one
   * descent towards the page's last LSN (a GET per level when cold), comparing the page id found
   * at the page's level. A key that does not parse as a page of this partition is not reachable.
   *
   * @throws ObjectNotFoundException if a page on the way is missing
   * @throws CorruptObjectException if a page on the way is invalid
   */
  public boolean referencesPage(Head head, ParsedKey.Page page) {
    return tree.referencesPage(head, page.level(), page.seqHi(), page.pageIdHex());
  }

  /**
   * Whether the segment object {@code segment} is the one the tree under {@code head} holds for
   * its base LSN (same epoch and uuid).
   *
   * @throws ObjectNotFoundException if a page on the way is missing
   * @throws CorruptObjectException if a page on the way is invalid
   */
  public boolean referencesSegment(Head head, ParsedKey.Segment segment) {
    return tree.findSegment(head, segment.baseLsn())
        .map(e -> e.baseLsn() == segment.baseLsn()
            && e.writerEpoch() == segment.writerEpoch()
            && e.segmentUuid().hex().equals(segment.segmentUuidHex()))
        .orElse(false);
  }

  /** Whether {@code entry} is reachable under {@code head} exactly as given. */
  boolean holds(Head head, LeafEntry entry) {
    if (entry.equals(head.lastSegment())) {
      return true;
    }
    return tree.findSegment(head, entry.baseLsn()).map(entry::equals).orElse(false);
  }

  @Override
  public String toString() {
    return "PartitionCatalog[" + headKey + "]";
  }
}
