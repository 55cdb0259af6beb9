package dev.objlog.internal.catalog;

import static dev.objlog.format.catalog.CatalogFormat.MAX_OPEN_INDEX_LEVEL;
import static dev.objlog.format.catalog.CatalogFormat.MAX_RECORD_LSN;
import static dev.objlog.format.catalog.CatalogFormat.RESERVED_LSN;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.RetentionRegressionException;
import dev.objlog.StaleWriterException;
import dev.objlog.TimestampOrderException;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.CatalogIdentity;
import dev.objlog.format.catalog.DecodedPage;
import dev.objlog.format.catalog.EncodedPage;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.IndexEntry;
import dev.objlog.format.catalog.IndexPage;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.catalog.LeafPage;
import dev.objlog.format.catalog.Root;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.catalog.CatalogExhaustedException.Resource;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The catalog's state transitions as pure functions of a head (FORMAT.md §2.8–2.10): no I/O (the
 * retention trim reads the pages it copies through a {@link PageSource}), so every transition can
 * be computed, checked and encoded before anything is written.
 *
 * <p>Thread-safety: stateless.
 */
final class CatalogMutations {
  private CatalogMutations() {}

  /**
   * The empty head {@code initializePartition} creates: generation 0, epoch 0, oldest = next.
   *
   * @throws InvalidArgumentException if {@code nextLsn} is the reserved LSN
   */
  static Head emptyHead(CatalogIdentity identity, CatalogOptions options, long nextLsn) {
    if (nextLsn == RESERVED_LSN) {
      throw new InvalidArgumentException("next_lsn 2^64-1 is reserved and cannot start a partition");
    }
    return Head.builder()
        .partition(identity.partition())
        .hashAlgorithm(options.hashAlgorithm())
        .leafLimit(options.leafLimit())
        .indexLimit(options.indexLimit())
        .nextLsn(nextLsn)
        .oldestLsn(nextLsn)
        .streamKey(identity.streamKey())
        .dataRootKey(identity.dataRootKey())
        .build();
  }

  /**
   * The takeover head: epoch + 1, generation + 1, the new writer id; nothing else changes (the
   * open leaf and sections stay, so a leaf may mix epochs).
   *
   * @throws InvalidArgumentException if {@code writerId} is zero
   * @throws CatalogExhaustedException if the epoch or generation is already 2^64−1
   */
  static Head takeover(Head head, Id128 writerId) {
    if (writerId.isZero()) {
      throw new InvalidArgumentException("a writer id must not be all zero");
    }
    if (head.writerEpoch() == -1L) {
      throw new CatalogExhaustedException(Resource.WRITER_EPOCH,
          "catalog: writer epoch 2^64-1 cannot be taken over (partition "
              + Integer.toUnsignedString(head.partition()) + ")");
    }
    if (head.generation() == -1L) {
      throw new CatalogExhaustedException(Resource.GENERATION,
          "catalog: generation 2^64-1 admits no further commit (partition "
              + Integer.toUnsignedString(head.partition()) + ")");
    }
    return head.toBuilder()
        .writerEpoch(head.writerEpoch() + 1)
        .generation(head.generation() + 1)
        .writerId(writerId)
        .build();
  }

  /**
   * Appends a group of segments as one commit: every entry goes through the normal carry/cascade
   * (§2.8), the generation rises once, and every page sealed by the group carries that new
   * generation. Preconditions are checked for each entry against the head as the previous entries
   * left it.
   *
   * @throws InvalidArgumentException if the group is empty, an entry's writer tag is not the
   *     head's writer id, or an entry breaks a leaf-entry rule
   * @throws StaleWriterException if the head has no writer or an entry's epoch is not the head's
   * @throws CatalogConflictException if an entry does not start at the next LSN
   * @throws TimestampOrderException if an entry starts before the previous segment's last
   *     timestamp
   * @throws CatalogExhaustedException if the generation is 2^64−1, an entry would end at
   *     2^64−2 (next_lsn would be reserved), or the tree would outgrow 64 open levels
   */
  static Mutation append(Head head, List<LeafEntry> group, PartitionKeys keys) {
    if (group.isEmpty()) {
      throw new InvalidArgumentException("catalog: a publish needs at least one segment");
    }
    if (head.generation() == -1L) {
      throw new CatalogExhaustedException(Resource.GENERATION,
          "catalog: generation 2^64-1 admits no further commit (partition "
              + Integer.toUnsignedString(head.partition()) + ")");
    }
    if (head.writerEpoch() == 0) {
      throw new StaleWriterException("catalog: the head has no writer; take over before publishing");
    }
    long generation = head.generation() + 1;
    Tree tree = new Tree(head, generation, keys);
    for (LeafEntry entry : group) {
      tree.append(entry);
    }
    Head next = tree.build();
    return new Mutation(next, CatalogCodec.encodeHead(next), tree.pages);
  }

  /** The head being changed, as mutable lists. Confined to one {@link #append} call. */
  private static final class Tree {
    private final Head base;
    private final long generation;
    private final PartitionKeys keys;
    private final List<LeafEntry> active;
    private final List<List<IndexEntry>> sections = new ArrayList<>();
    private final List<Mutation.PageObject> pages = new ArrayList<>();
    private long nextLsn;
    private long oldestLsn;
    private long segmentCount;
    private long reachable;
    private @Nullable LeafEntry last;

    Tree(Head base, long generation, PartitionKeys keys) {
      this.base = base;
      this.generation = generation;
      this.keys = keys;
      this.active = new ArrayList<>(base.active());
      for (List<IndexEntry> section : base.sections()) {
        sections.add(new ArrayList<>(section));
      }
      this.nextLsn = base.nextLsn();
      this.oldestLsn = base.oldestLsn();
      this.segmentCount = base.segmentCount();
      this.reachable = base.reachableSegmentCount();
      this.last = base.lastSegment();
    }

    void append(LeafEntry entry) {
      String what = "catalog: segment " + entry;
      if (entry.writerEpoch() != base.writerEpoch()) {
        throw new StaleWriterException(what + " has writer epoch "
            + Long.toUnsignedString(entry.writerEpoch()) + " but the head's fence is "
            + Long.toUnsignedString(base.writerEpoch()));
      }
      if (!entry.writerTag().equals(base.writerId())) {
        throw new InvalidArgumentException(what + " has writer tag " + entry.writerTag()
            + " but the head's writer id is " + base.writerId());
      }
      if (entry.baseLsn() != nextLsn) {
        throw new CatalogConflictException(what + " starts at "
            + Long.toUnsignedString(entry.baseLsn()) + " but the next LSN is "
            + Long.toUnsignedString(nextLsn));
      }
      if (Long.compareUnsigned(entry.lastLsn(), entry.baseLsn()) < 0
          || Long.compareUnsigned(entry.lastLsn(), MAX_RECORD_LSN) > 0) {
        throw new InvalidArgumentException(what + " has an invalid LSN range");
      }
      if (entry.lastLsn() == MAX_RECORD_LSN) {
        // A head's next_lsn would be the reserved LSN, which the head rules reject (as in Go).
        throw new CatalogExhaustedException(Resource.LSN, what
            + " would end at LSN 2^64-2; the LSN space of the partition is exhausted");
      }
      if (last != null && entry.minTimestampMs() < last.maxTimestampMs()) {
        throw new TimestampOrderException(what + " starts at timestamp " + entry.minTimestampMs()
            + ", before the previous segment's last timestamp " + last.maxTimestampMs());
      }
      if (segmentCount == -1L) {
        throw new CatalogExhaustedException(Resource.GENERATION,
            "catalog: the segment counter is exhausted");
      }
      if (last == null) {
        oldestLsn = entry.baseLsn();
      }
      nextLsn = entry.lastLsn() + 1;
      segmentCount++;
      reachable++;
      last = entry;
      active.add(entry);
      if (active.size() == base.leafLimit()) {
        LeafPage leaf = LeafPage.seal(base.partition(), base.hashAlgorithm(), generation,
            base.writerEpoch(), base.streamKey(), active);
        IndexEntry reference = store(leaf.header().level(), CatalogCodec.encodePage(leaf));
        active.clear();
        push(1, reference);
      }
    }

    /** Appends a reference at {@code level}, sealing and cascading full sections upwards. */
    private void push(int level, IndexEntry reference) {
      while (sections.size() < level) {
        sections.add(new ArrayList<>());
      }
      List<IndexEntry> section = sections.get(level - 1);
      if (level == MAX_OPEN_INDEX_LEVEL && section.size() + 1 >= base.indexLimit()) {
        throw new CatalogExhaustedException(Resource.INDEX_LEVELS,
            "catalog: the open index section at level 64 is full");
      }
      section.add(reference);
      if (section.size() < base.indexLimit()) {
        return;
      }
      IndexPage page = IndexPage.seal(level, base.partition(), base.hashAlgorithm(), generation,
          base.writerEpoch(), base.streamKey(), section);
      IndexEntry parent = store(level, CatalogCodec.encodePage(page));
      section.clear();
      push(level + 1, parent);
    }

    private IndexEntry store(int level, EncodedPage encoded) {
      IndexEntry reference = encoded.reference();
      String key = keys.page(level, reference.seqLo(), reference.seqHi(), reference.generation(),
          reference.pageId().toBytes());
      pages.add(new Mutation.PageObject(key, encoded));
      return reference;
    }

    Head build() {
      return base.toBuilder()
          .generation(generation)
          .nextLsn(nextLsn)
          .oldestLsn(oldestLsn)
          .segmentCount(segmentCount)
          .reachableSegmentCount(reachable)
          .lastSegment(last)
          .active(active)
          .sections(sections)
          .build();
    }
  }

  /**
   * Checks that {@code result} is what publishing {@code group} onto {@code previous} must give
   * (PROTOCOLS.md §5.2, for a group of k): same identity and fence, retention fields unchanged,
   * generation + 1, segment and reachable counts + k, last segment = the group's last entry,
   * next LSN = its last LSN + 1, and the group's first entry starting at the previous next LSN.
   *
   * @throws InvalidPublishResultException naming the first difference
   */
  static void checkPublishResult(Head previous, Head result, List<LeafEntry> group) {
    LeafEntry first = group.get(0);
    LeafEntry lastEntry = group.get(group.size() - 1);
    long k = group.size();
    String problem = null;
    if (result.partition() != previous.partition()
        || !result.streamKey().equals(previous.streamKey())
        || !result.dataRootKey().equals(previous.dataRootKey())) {
      problem = "the identity changed";
    } else if (result.writerEpoch() != previous.writerEpoch()
        || !result.writerId().equals(previous.writerId())) {
      problem = "the fence changed";
    } else if (result.appliedRetentionLsn() != previous.appliedRetentionLsn()
        || result.appliedRetentionVersion() != previous.appliedRetentionVersion()) {
      problem = "the retention fields changed";
    } else if (result.generation() != previous.generation() + 1) {
      problem = "the generation did not rise by exactly 1";
    } else if (result.segmentCount() != previous.segmentCount() + k
        || result.reachableSegmentCount() != previous.reachableSegmentCount() + k) {
      problem = "the segment counts did not rise by " + k;
    } else if (first.baseLsn() != previous.nextLsn()) {
      problem = "the group does not start at the previous next LSN";
    } else if (!lastEntry.equals(result.lastSegment())) {
      problem = "the last segment is not the group's last entry";
    } else if (result.nextLsn() != lastEntry.lastLsn() + 1) {
      problem = "next_lsn does not follow the group's last entry";
    }
    if (problem != null) {
      throw new InvalidPublishResultException("catalog: invalid publish result for "
          + k + " segment(s) onto generation " + Long.toUnsignedString(previous.generation())
          + ": " + problem);
    }
  }

  // ---------------------------------------------------------------- retention (FORMAT.md §2.10)

  /** Where the retention trim reads the pages it copies: the child a reference points to. */
  @FunctionalInterface
  interface PageSource {
    /**
     * @param parentWriterEpoch the epoch of the page or head holding {@code reference}
     * @throws CorruptObjectException if the page does not match its reference
     */
    DecodedPage load(IndexEntry reference, long parentWriterEpoch);
  }

  /**
   * A computed retention change.
   *
   * @param mutation the new head and the trimmed page copies to store before it, or null when the
   *     request is already applied (no-op)
   * @param targetLsn the clamped request, min(beforeLsn, next_lsn), as the head records it
   * @param effectiveOldestLsn the retention floor after the change (whole-segment granularity, so
   *     possibly below the target)
   */
  record Retention(@Nullable Mutation mutation, long targetLsn, long effectiveOldestLsn) {}

  /**
   * Applies a retention request to {@code head} (FORMAT.md §2.10): the same (version, LSN) as
   * already applied is a no-op (a request LSN above the applied one counts as the same when the
   * version matches, since the head records the request clamped to next_lsn); otherwise the
   * generation rises by one, the applied fields become (version, min(beforeLsn, next_lsn)), and
   * every root entirely below the segment containing that LSN is dropped. The one straddling
   * reference per level is replaced by a trimmed copy, sealed at the new generation under the
   * head's epoch (new page id, new key). Empty top sections are removed.
   *
   * @throws InvalidArgumentException if {@code policyVersion} is 0
   * @throws RetentionRegressionException if the version is below the applied one, or the same
   *     version with a lower LSN, or a higher version with an LSN below the applied LSN
   * @throws StaleWriterException if the head has no writer
   * @throws CatalogExhaustedException if the generation is 2^64−1
   * @throws CorruptObjectException if a page read on the way does not match its reference
   */
  static Retention retain(Head head, long policyVersion, long beforeLsn, PartitionKeys keys,
      PageSource pages) {
    if (policyVersion == 0) {
      throw new InvalidArgumentException("a retention policy version must be positive");
    }
    long appliedVersion = head.appliedRetentionVersion();
    long appliedLsn = head.appliedRetentionLsn();
    int byVersion = Long.compareUnsigned(policyVersion, appliedVersion);
    if (byVersion == 0 && Long.compareUnsigned(beforeLsn, appliedLsn) >= 0) {
      return new Retention(null, appliedLsn, head.oldestLsn());
    }
    if (byVersion <= 0 || Long.compareUnsigned(beforeLsn, appliedLsn) < 0) {
      throw new RetentionRegressionException("catalog: retention (version "
          + Long.toUnsignedString(policyVersion) + ", before " + Long.toUnsignedString(beforeLsn)
          + ") does not advance the applied (version " + Long.toUnsignedString(appliedVersion)
          + ", before " + Long.toUnsignedString(appliedLsn) + ") of partition "
          + Integer.toUnsignedString(head.partition()), appliedVersion, appliedLsn);
    }
    if (head.writerEpoch() == 0) {
      throw new StaleWriterException("catalog: the head has no writer; take over before applying retention");
    }
    if (head.generation() == -1L) {
      throw new CatalogExhaustedException(Resource.GENERATION,
          "catalog: generation 2^64-1 admits no further commit (partition "
              + Integer.toUnsignedString(head.partition()) + ")");
    }
    long generation = head.generation() + 1;
    long next = head.nextLsn();
    long target = Long.compareUnsigned(beforeLsn, next) < 0 ? beforeLsn : next;
    Head.Builder builder = head.toBuilder()
        .generation(generation)
        .appliedRetentionLsn(target)
        .appliedRetentionVersion(policyVersion);
    List<Mutation.PageObject> written = new ArrayList<>();
    long effective = head.oldestLsn();
    if (Long.compareUnsigned(target, head.oldestLsn()) <= 0) {
      // Nothing below the target is reachable any more: only the applied fields change.
    } else if (target == next) {
      effective = next;
      builder.oldestLsn(next).reachableSegmentCount(0).active(List.of()).sections(List.of());
    } else {
      Trim trim = new Trim(head, generation, keys, pages, written);
      effective = trim.floorFor(target);
      if (Long.compareUnsigned(effective, head.oldestLsn()) > 0) {
        trim.apply(effective, builder);
      }
    }
    Head result = builder.build();
    return new Retention(new Mutation(result, CatalogCodec.encodeHead(result), written), target,
        effective);
  }

  /** The copy-on-write trim of one head. Confined to one {@link #retain} call. */
  private static final class Trim {
    private final Head head;
    private final long generation;
    private final PartitionKeys keys;
    private final PageSource pages;
    private final List<Mutation.PageObject> written;

    Trim(Head head, long generation, PartitionKeys keys, PageSource pages,
        List<Mutation.PageObject> written) {
      this.head = head;
      this.generation = generation;
      this.keys = keys;
      this.pages = pages;
      this.written = written;
    }

    /** The base LSN of the segment containing {@code lsn} (oldest ≤ lsn < next). */
    long floorFor(long lsn) {
      for (Root root : head.roots()) {
        if (Long.compareUnsigned(root.seqHi(), lsn) < 0) {
          continue;
        }
        if (root instanceof Root.LeafRoot leaf) {
          return leaf.entry().baseLsn();
        }
        IndexEntry reference = ((Root.PageRoot) root).reference();
        long parentEpoch = head.writerEpoch();
        while (true) {
          DecodedPage decoded = pages.load(reference, parentEpoch);
          parentEpoch = decoded.page().header().writerEpoch();
          if (decoded.page() instanceof LeafPage leaf) {
            for (LeafEntry entry : leaf.entries()) {
              if (Long.compareUnsigned(entry.lastLsn(), lsn) >= 0) {
                return entry.baseLsn();
              }
            }
            throw missing(reference, lsn);
          }
          IndexEntry found = null;
          for (IndexEntry child : decoded.index().entries()) {
            if (Long.compareUnsigned(child.seqHi(), lsn) >= 0) {
              found = child;
              break;
            }
          }
          if (found == null) {
            throw missing(reference, lsn);
          }
          reference = found;
        }
      }
      throw new CorruptObjectException("catalog: no root of the head covers LSN "
          + Long.toUnsignedString(lsn) + " below next_lsn " + Long.toUnsignedString(head.nextLsn()));
    }

    void apply(long effective, Head.Builder builder) {
      List<List<IndexEntry>> sections = new ArrayList<>();
      long reachable = 0;
      for (List<IndexEntry> section : head.sections()) {
        List<IndexEntry> kept = new ArrayList<>();
        for (IndexEntry reference : section) {
          if (Long.compareUnsigned(reference.seqHi(), effective) < 0) {
            continue;
          }
          IndexEntry survivor = Long.compareUnsigned(reference.seqLo(), effective) < 0
              ? copy(reference, head.writerEpoch(), effective)
              : reference;
          kept.add(survivor);
          reachable += survivor.segmentCount();
        }
        sections.add(kept);
      }
      while (!sections.isEmpty() && sections.get(sections.size() - 1).isEmpty()) {
        sections.remove(sections.size() - 1);
      }
      List<LeafEntry> active = new ArrayList<>();
      for (LeafEntry entry : head.active()) {
        if (Long.compareUnsigned(entry.lastLsn(), effective) >= 0) {
          active.add(entry);
          reachable++;
        }
      }
      builder.oldestLsn(effective).reachableSegmentCount(reachable).sections(sections).active(active);
    }

    /** A trimmed copy of the page {@code reference} points to, starting at {@code effective}. */
    private IndexEntry copy(IndexEntry reference, long parentEpoch, long effective) {
      DecodedPage decoded = pages.load(reference, parentEpoch);
      long epoch = decoded.page().header().writerEpoch();
      EncodedPage encoded;
      if (decoded.page() instanceof LeafPage leaf) {
        List<LeafEntry> kept = new ArrayList<>();
        for (LeafEntry entry : leaf.entries()) {
          if (Long.compareUnsigned(entry.lastLsn(), effective) >= 0) {
            kept.add(entry);
          }
        }
        if (kept.isEmpty() || kept.get(0).baseLsn() != effective) {
          throw missing(reference, effective);
        }
        encoded = CatalogCodec.encodePage(LeafPage.seal(head.partition(), head.hashAlgorithm(),
            generation, head.writerEpoch(), head.streamKey(), kept));
      } else {
        List<IndexEntry> kept = new ArrayList<>();
        for (IndexEntry child : decoded.index().entries()) {
          if (Long.compareUnsigned(child.seqHi(), effective) < 0) {
            continue;
          }
          kept.add(kept.isEmpty() && Long.compareUnsigned(child.seqLo(), effective) < 0
              ? copy(child, epoch, effective)
              : child);
        }
        if (kept.isEmpty()) {
          throw missing(reference, effective);
        }
        encoded = CatalogCodec.encodePage(IndexPage.seal(reference.level(), head.partition(),
            head.hashAlgorithm(), generation, head.writerEpoch(), head.streamKey(), kept));
      }
      IndexEntry trimmed = encoded.reference();
      written.add(new Mutation.PageObject(keys.page(trimmed.level(), trimmed.seqLo(),
          trimmed.seqHi(), trimmed.generation(), trimmed.pageId().toBytes()), encoded));
      return trimmed;
    }

    private static CorruptObjectException missing(IndexEntry reference, long lsn) {
      return new CorruptObjectException("catalog: page " + reference.pageId() + " " + reference
          + " holds no entry for LSN " + Long.toUnsignedString(lsn) + " inside its promised range");
    }
  }
}
