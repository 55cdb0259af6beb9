package dev.objlog.internal.read;

import dev.objlog.CorruptObjectException;
import dev.objlog.PartitionVerification;
import dev.objlog.PartitionVerification.Outcome;
import dev.objlog.PartitionVerification.Problem;
import dev.objlog.PartitionVerification.ProblemKind;
import dev.objlog.PartitionVerification.Progress;
import dev.objlog.VerifyOptions;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SegmentReaderOptions;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.catalog.CatalogStore;
import dev.objlog.internal.catalog.HeadSnapshot;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.internal.catalog.TreeReport;
import dev.objlog.internal.catalog.TreeVisitor;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ReadOnlyObjectStore;
import dev.objlog.store.RequestRateLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * On-demand verification of one partition: the head, every catalog page (FORMAT.md §2.12, read
 * from the bucket, never from a cache) and every segment the catalog references (exists with its
 * size; optionally read in full against its entry and hashes). Every request goes through a
 * {@link ReadOnlyObjectStore} that spaces requests to the configured rate and refuses writes, so a
 * verification can neither change the bucket nor outrun its request budget.
 *
 * <p>Thread-safety: one verification per instance, on one thread.
 */
public final class PartitionVerifier {
  private final int partition;
  private final VerifyOptions options;
  private final ReadOnlyObjectStore store;
  private final PartitionCatalog catalog;
  private final PartitionKeys keys;
  private final List<Problem> problems = new ArrayList<>();
  private long problemCount;
  private long pagesChecked;
  private long segmentsChecked;
  private long segmentsTotal;

  private PartitionVerifier(LogRuntime runtime, int partition, VerifyOptions options) {
    this.partition = partition;
    this.options = options;
    this.store = ReadOnlyObjectStore.of(runtime.store(),
        RequestRateLimiter.of(options.maxRequestsPerSecond(), runtime.ticker(), runtime.options().sleeper()));
    PartitionCatalog shared = runtime.catalog(partition);
    this.keys = shared.keys();
    // A catalog of its own over the limited store: the log's caches are neither used nor filled.
    this.catalog = new CatalogStore(store, runtime.catalogStore().options()).partition(keys, shared.identity());
  }

  /**
   * Verifies {@code partition} of {@code runtime}'s stream.
   *
   * @throws dev.objlog.store.StoreException if the store failed (the verification is incomplete:
   *     run it again); problems of the bucket's contents are reported in the result, not thrown
   */
  public static PartitionVerification verify(LogRuntime runtime, int partition, VerifyOptions options) {
    return new PartitionVerifier(runtime, partition, options).run();
  }

  private PartitionVerification run() {
    Optional<HeadSnapshot> snapshot;
    try {
      snapshot = catalog.loadHead();
    } catch (CorruptObjectException e) {
      problem(ProblemKind.CATALOG, keys.head(), e.getMessage());
      return result(null, null);
    }
    if (snapshot.isEmpty()) {
      return result(null, null);
    }
    Head head = snapshot.get().head();
    segmentsTotal = head.reachableSegmentCount();
    List<LeafEntry> entries = new ArrayList<>();
    TreeReport tree;
    try {
      tree = catalog.verifyTree(head, new TreeVisitor() {
        @Override
        public void page(String key) {
          pagesChecked++;
          report();
        }

        @Override
        public void segment(LeafEntry entry) {
          entries.add(entry);
        }
      });
    } catch (CorruptObjectException e) {
      problem(ProblemKind.CATALOG, keys.head(), e.getMessage());
      return result(head, null);
    }
    for (LeafEntry entry : entries) {
      checkSegment(entry);
      segmentsChecked++;
      report();
    }
    return result(head, tree);
  }

  private void checkSegment(LeafEntry entry) {
    String key = keys.segment(entry.baseLsn(), entry.writerEpoch(), entry.segmentUuid().toBytes());
    if (!options.segmentHashes()) {
      Optional<ObjectMetadata> metadata = store.head(key);
      if (metadata.isEmpty()) {
        problem(ProblemKind.SEGMENT_MISSING, key, "the catalog references it but the bucket has no such object");
      } else if (metadata.get().size() != entry.sizeBytes()) {
        problem(ProblemKind.SEGMENT_CORRUPT, key, "the object has " + metadata.get().size()
            + " bytes but its catalog entry says " + entry.sizeBytes());
      }
      return;
    }
    try {
      SegmentReader.open((offset, length) -> store.getRange(key, offset, length), entry.sizeBytes(),
          SegmentReaderOptions.defaults()
              .withExpected(SegmentAccess.expectedRef(partition, entry))
              .withVerifySegmentHash(true));
    } catch (ObjectNotFoundException e) {
      problem(ProblemKind.SEGMENT_MISSING, key, "the catalog references it but the bucket has no such object");
    } catch (CorruptObjectException e) {
      problem(ProblemKind.SEGMENT_CORRUPT, key, e.getMessage());
    }
  }

  private void problem(ProblemKind kind, String key, String detail) {
    problemCount++;
    if (problems.size() < options.maxProblems()) {
      problems.add(new Problem(kind, key, detail));
    }
  }

  private void report() {
    options.progress().accept(
        new Progress(partition, pagesChecked, segmentsChecked, segmentsTotal, store.requests(), problemCount));
  }

  private PartitionVerification result(@Nullable Head head, @Nullable TreeReport tree) {
    Outcome outcome = problemCount > 0 ? Outcome.CORRUPT : head == null ? Outcome.NO_PARTITION : Outcome.OK;
    return new PartitionVerification(
        partition, outcome,
        head == null ? 0 : head.generation(),
        head == null ? 0 : head.oldestLsn(),
        head == null ? 0 : head.nextLsn(),
        tree == null ? 0 : tree.leafPages(),
        tree == null ? 0 : tree.indexPages(),
        tree == null ? segmentsTotal : tree.segments(),
        segmentsChecked, options.segmentHashes(), store.requests(), problemCount, problems);
  }
}
