package dev.objlog;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Objlog#verifyPartition} found: the partition's head, how much of its tree was
 * checked, and every problem (the first {@link VerifyOptions#maxProblems()} listed).
 *
 * <p>Thread-safety: immutable.
 *
 * @param partition the partition
 * @param outcome {@link Outcome#OK}, {@link Outcome#NO_PARTITION} or {@link Outcome#CORRUPT}
 * @param headGeneration the generation of the head that was verified (u64; 0 without a head)
 * @param oldestLsn the head's oldest LSN (u64)
 * @param nextLsn the head's next LSN (u64)
 * @param leafPages sealed leaf pages read and checked
 * @param indexPages sealed index pages read and checked
 * @param segments segments the catalog references (reachable)
 * @param segmentsChecked segments whose object was checked
 * @param segmentHashesChecked whether segment objects were read in full and their hashes checked
 * @param requests store requests made
 * @param problemCount all problems found
 * @param problems the first problems found, in traversal order
 */
public record PartitionVerification(
    int partition, Outcome outcome, long headGeneration, long oldestLsn, long nextLsn,
    long leafPages, long indexPages, long segments, long segmentsChecked, boolean segmentHashesChecked,
    long requests, long problemCount, List<Problem> problems) {

  public PartitionVerification {
    Objects.requireNonNull(outcome, "outcome");
    problems = List.copyOf(problems);
  }

  /** The overall answer. */
  public enum Outcome {
    /** Head, every page and every segment checked passed. */
    OK,
    /** The partition has no head (never written or initialized); nothing to check. */
    NO_PARTITION,
    /** At least one problem; see {@link #problems()}. */
    CORRUPT
  }

  /** What is wrong with one object. */
  public enum ProblemKind {
    /**
     * The head or a catalog page breaks a rule of FORMAT.md §2.12 or is missing. The tree walk
     * stops at the first one: what lies below a broken page cannot be trusted, so the segments
     * are not checked.
     */
    CATALOG,
    /** A segment the catalog references is not in the bucket. */
    SEGMENT_MISSING,
    /** A segment object differs from its catalog entry (size, trailer, index) or fails its hash. */
    SEGMENT_CORRUPT
  }

  /**
   * One problem.
   *
   * @param kind what kind
   * @param key the object key (the head's key for a head problem)
   * @param detail the rule broken, as a sentence
   */
  public record Problem(ProblemKind kind, String key, String detail) {
    public Problem {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(detail, "detail");
    }
  }

  /**
   * How far a verification has come, after each page and segment.
   *
   * @param partition the partition
   * @param pagesChecked sealed pages read and checked so far
   * @param segmentsChecked segment objects checked so far
   * @param segmentsTotal segments the head says are reachable
   * @param requests store requests so far
   * @param problems problems so far
   */
  public record Progress(
      int partition, long pagesChecked, long segmentsChecked, long segmentsTotal, long requests, long problems) {}

  /** Whether nothing is wrong (an absent partition has nothing wrong). */
  public boolean ok() {
    return outcome != Outcome.CORRUPT;
  }
}
