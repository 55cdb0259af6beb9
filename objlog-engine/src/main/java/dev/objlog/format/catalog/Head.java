package dev.objlog.format.catalog;

import dev.objlog.InvalidArgumentException;
import dev.objlog.format.HashAlgorithm;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The mutable catalog head of one stream partition ({@code head.plc}), replaced only by
 * compare-and-swap. It carries the LSN and retention state, the fence (writer epoch and id), the
 * commit generation, the last segment, the open leaf ("active" entries) and one open index
 * section per level: the frontier of the tree.
 *
 * <p>Fields that the wire format derives are not stored: flags (bit 0 is {@code lastSegment !=
 * null}), active_count, level_count, section levels (section {@code i} of {@link #sections()} is
 * level {@code i + 1}) and segment_layout_version (always {@link
 * CatalogFormat#SEGMENT_LAYOUT_V1}). Unsigned fields follow the conventions of {@link
 * LeafEntry}. Construction checks nothing beyond non-null components; {@link
 * CatalogCodec#validateHead} and the codec check the format's rules.
 *
 * <p>Thread-safety: immutable (lists are unmodifiable copies).
 *
 * @param partition the stream partition (u32 held in an int)
 * @param hashAlgorithm the algorithm of the head's trailer hashes
 * @param leafLimit entries per sealed leaf (1..1024)
 * @param indexLimit entries per sealed index page (2..1024)
 * @param nextLsn the LSN the next segment must start at
 * @param oldestLsn the retention floor: first LSN still reachable
 * @param appliedRetentionLsn the last applied retention request's (clamped) LSN
 * @param appliedRetentionVersion the last applied retention policy version; 0 = none
 * @param writerEpoch the fence; 0 only before the first writer took over
 * @param generation the commit counter
 * @param segmentCount segments ever committed (never reduced by retention)
 * @param reachableSegmentCount segments still reachable from the roots
 * @param writerId the writer that holds the fence; zero iff {@code writerEpoch} is 0
 * @param streamKey SHA-256 of the canonical stream id
 * @param dataRootKey SHA-256 of the normalized data root
 * @param lastSegment the most recently committed segment, or null for an empty partition
 * @param active the open leaf's entries, oldest first
 * @param sections the open index sections, level 1 first; a section may be empty
 */
public record Head(
    int partition,
    HashAlgorithm hashAlgorithm,
    int leafLimit,
    int indexLimit,
    long nextLsn,
    long oldestLsn,
    long appliedRetentionLsn,
    long appliedRetentionVersion,
    long writerEpoch,
    long generation,
    long segmentCount,
    long reachableSegmentCount,
    Id128 writerId,
    Key256 streamKey,
    Key256 dataRootKey,
    @Nullable LeafEntry lastSegment,
    List<LeafEntry> active,
    List<List<IndexEntry>> sections) {

  public Head {
    Objects.requireNonNull(hashAlgorithm, "hashAlgorithm");
    Objects.requireNonNull(writerId, "writerId");
    Objects.requireNonNull(streamKey, "streamKey");
    Objects.requireNonNull(dataRootKey, "dataRootKey");
    active = List.copyOf(active);
    List<List<IndexEntry>> copied = new ArrayList<>(sections.size());
    for (List<IndexEntry> section : sections) {
      copied.add(List.copyOf(section));
    }
    sections = List.copyOf(copied);
  }

  /** Flag bit 0. */
  public boolean hasLastSegment() {
    return lastSegment != null;
  }

  /** The head flags word as stored. */
  public int flags() {
    return lastSegment != null ? CatalogFormat.FLAG_HAS_LAST_SEGMENT : 0;
  }

  public int activeCount() {
    return active.size();
  }

  public int levelCount() {
    return sections.size();
  }

  /**
   * The open section at {@code level} (1-based).
   *
   * @throws InvalidArgumentException if the head has no section at that level
   */
  public List<IndexEntry> section(int level) {
    if (level < 1 || level > sections.size()) {
      throw new InvalidArgumentException(
          "the head has sections at levels 1.." + sections.size() + ", not " + level);
    }
    return sections.get(level - 1);
  }

  /**
   * The roots in reader traversal order, oldest first: the entries of the highest section, then
   * the next lower section, down to level 1, then the active leaf entries.
   */
  public List<Root> roots() {
    List<Root> roots = new ArrayList<>();
    for (int i = sections.size() - 1; i >= 0; i--) {
      for (IndexEntry reference : sections.get(i)) {
        roots.add(new Root.PageRoot(reference));
      }
    }
    for (LeafEntry entry : active) {
      roots.add(new Root.LeafRoot(entry));
    }
    return List.copyOf(roots);
  }

  /** Encoded size of this head. */
  public int encodedSize() {
    int size = CatalogFormat.MIN_HEAD_SIZE + active.size() * CatalogFormat.LEAF_ENTRY_SIZE;
    for (List<IndexEntry> section : sections) {
      size += CatalogFormat.SECTION_HEADER_SIZE + section.size() * CatalogFormat.INDEX_ENTRY_SIZE;
    }
    return size;
  }

  /** A builder starting from this head's values, for commits that change a few fields. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * A builder for an empty-partition head: default limits (128/128), XXH64 hashing (the Go
   * writer's choice), no writer, all counters zero. The stream and data-root keys start all zero
   * and must be set before the head can be encoded.
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Collects head fields. Not thread-safe: confine a builder to one thread.
   */
  public static final class Builder {
    private int partition;
    private HashAlgorithm hashAlgorithm = HashAlgorithm.XXH64;
    private int leafLimit = CatalogFormat.DEFAULT_LEAF_LIMIT;
    private int indexLimit = CatalogFormat.DEFAULT_INDEX_LIMIT;
    private long nextLsn;
    private long oldestLsn;
    private long appliedRetentionLsn;
    private long appliedRetentionVersion;
    private long writerEpoch;
    private long generation;
    private long segmentCount;
    private long reachableSegmentCount;
    private Id128 writerId = Id128.ZERO;
    private Key256 streamKey = Key256.ZERO;
    private Key256 dataRootKey = Key256.ZERO;
    private @Nullable LeafEntry lastSegment;
    private List<LeafEntry> active = List.of();
    private List<List<IndexEntry>> sections = List.of();

    private Builder() {}

    private Builder(Head head) {
      partition = head.partition;
      hashAlgorithm = head.hashAlgorithm;
      leafLimit = head.leafLimit;
      indexLimit = head.indexLimit;
      nextLsn = head.nextLsn;
      oldestLsn = head.oldestLsn;
      appliedRetentionLsn = head.appliedRetentionLsn;
      appliedRetentionVersion = head.appliedRetentionVersion;
      writerEpoch = head.writerEpoch;
      generation = head.generation;
      segmentCount = head.segmentCount;
      reachableSegmentCount = head.reachableSegmentCount;
      writerId = head.writerId;
      streamKey = head.streamKey;
      dataRootKey = head.dataRootKey;
      lastSegment = head.lastSegment;
      active = head.active;
      sections = head.sections;
    }

    public Builder partition(int value) {
      partition = value;
      return this;
    }

    public Builder hashAlgorithm(HashAlgorithm value) {
      hashAlgorithm = value;
      return this;
    }

    public Builder leafLimit(int value) {
      leafLimit = value;
      return this;
    }

    public Builder indexLimit(int value) {
      indexLimit = value;
      return this;
    }

    public Builder nextLsn(long value) {
      nextLsn = value;
      return this;
    }

    public Builder oldestLsn(long value) {
      oldestLsn = value;
      return this;
    }

    public Builder appliedRetentionLsn(long value) {
      appliedRetentionLsn = value;
      return this;
    }

    public Builder appliedRetentionVersion(long value) {
      appliedRetentionVersion = value;
      return this;
    }

    public Builder writerEpoch(long value) {
      writerEpoch = value;
      return this;
    }

    public Builder generation(long value) {
      generation = value;
      return this;
    }

    public Builder segmentCount(long value) {
      segmentCount = value;
      return this;
    }

    public Builder reachableSegmentCount(long value) {
      reachableSegmentCount = value;
      return this;
    }

    public Builder writerId(Id128 value) {
      writerId = value;
      return this;
    }

    public Builder streamKey(Key256 value) {
      streamKey = value;
      return this;
    }

    public Builder dataRootKey(Key256 value) {
      dataRootKey = value;
      return this;
    }

    public Builder lastSegment(@Nullable LeafEntry value) {
      lastSegment = value;
      return this;
    }

    public Builder active(List<LeafEntry> value) {
      active = value;
      return this;
    }

    public Builder sections(List<List<IndexEntry>> value) {
      sections = value;
      return this;
    }

    public Head build() {
      return new Head(
          partition,
          hashAlgorithm,
          leafLimit,
          indexLimit,
          nextLsn,
          oldestLsn,
          appliedRetentionLsn,
          appliedRetentionVersion,
          writerEpoch,
          generation,
          segmentCount,
          reachableSegmentCount,
          writerId,
          streamKey,
          dataRootKey,
          lastSegment,
          active,
          sections);
    }
  }
}
