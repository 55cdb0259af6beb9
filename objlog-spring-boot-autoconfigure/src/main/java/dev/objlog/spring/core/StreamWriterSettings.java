package dev.objlog.spring.core;

import dev.objlog.WriterOptions;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How the {@link ObjlogTemplate} writes one stream: the partitions this instance writes, the
 * options of each writer it opens (every opening gets a fresh random writer id), and whether to
 * re-open a partition whose writer another writer fenced out, and whether instances share the
 * partitions by lease.
 *
 * <p>Thread-safety: immutable.
 *
 * @param partitions the partitions this instance writes
 * @param options writer options; their writer id is replaced at every opening
 * @param reopenAfterFenceLoss whether a fenced-out partition is taken back on the next send
 * @param lease null: this instance writes all of {@code partitions}; otherwise it writes only
 *     those of them whose writer lease it holds ({@link ObjlogTemplate})
 */
public record StreamWriterSettings(PartitionSet partitions, WriterOptions options, boolean reopenAfterFenceLoss,
    @Nullable WriterLeaseSettings lease) {
  public StreamWriterSettings {
    Objects.requireNonNull(partitions, "partitions");
    Objects.requireNonNull(options, "options");
  }

  /** Settings without writer leases. */
  public StreamWriterSettings(PartitionSet partitions, WriterOptions options, boolean reopenAfterFenceLoss) {
    this(partitions, options, reopenAfterFenceLoss, null);
  }

  /** All partitions, default options, no re-opening. */
  public static StreamWriterSettings defaults(int partitionCount) {
    return new StreamWriterSettings(PartitionSet.all(partitionCount), WriterOptions.defaults(), false);
  }

  /** The options for one opening: these, with a fresh random writer id. */
  WriterOptions newWriterOptions() {
    return new WriterOptions(WriterOptions.randomWriterId(), options.batch(), options.backpressure(),
        options.adaptiveDelay(), options.pipeline(), options.timeouts());
  }
}
