package dev.objlog;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * How {@link Objlog#verifyPartition} checks a partition.
 *
 * <p>Thread-safety: immutable; the progress listener is called on the verifying thread.
 *
 * @param segmentHashes read every segment in full and check its index against its catalog entry
 *     and its segment hash (one ranged GET per 8 MiB, plus the trailer, preamble and index); off: one HEAD per segment checks it
 *     exists with the catalog's size
 * @param maxRequestsPerSecond at most this many store requests start per second (every page,
 *     HEAD and ranged GET counts); 0 means unlimited. Default {@value #DEFAULT_REQUESTS_PER_SECOND},
 *     so that a verification on a live bucket does not compete with writers for the provider's
 *     request-rate budget.
 * @param maxProblems the most problems the result lists (all are counted); at least 1
 * @param progress told after every page and segment checked
 */
public record VerifyOptions(
    boolean segmentHashes, double maxRequestsPerSecond, int maxProblems,
    Consumer<PartitionVerification.Progress> progress) {
  /** The default request rate of a verification. */
  public static final double DEFAULT_REQUESTS_PER_SECOND = 50;

  public VerifyOptions {
    if (!(maxRequestsPerSecond >= 0) || Double.isInfinite(maxRequestsPerSecond)) {
      throw new InvalidArgumentException(
          "maxRequestsPerSecond must be finite and >= 0 (0: unlimited), was " + maxRequestsPerSecond);
    }
    if (maxProblems < 1) {
      throw new InvalidArgumentException("maxProblems must be at least 1, was " + maxProblems);
    }
    Objects.requireNonNull(progress, "progress");
  }

  /** Catalog and segment references (no segment reads), 50 requests per second, 100 problems listed, no progress listener. */
  public static VerifyOptions defaults() {
    return new VerifyOptions(false, DEFAULT_REQUESTS_PER_SECOND, 100, p -> {});
  }

  public VerifyOptions withSegmentHashes(boolean value) {
    return new VerifyOptions(value, maxRequestsPerSecond, maxProblems, progress);
  }

  public VerifyOptions withMaxRequestsPerSecond(double value) {
    return new VerifyOptions(segmentHashes, value, maxProblems, progress);
  }

  public VerifyOptions withMaxProblems(int value) {
    return new VerifyOptions(segmentHashes, maxRequestsPerSecond, value, progress);
  }

  public VerifyOptions withProgress(Consumer<PartitionVerification.Progress> value) {
    return new VerifyOptions(segmentHashes, maxRequestsPerSecond, maxProblems, value);
  }
}
