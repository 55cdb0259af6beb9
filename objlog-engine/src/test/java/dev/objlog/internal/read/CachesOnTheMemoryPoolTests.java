package dev.objlog.internal.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.MemoryBudget;
import dev.objlog.MemoryPart;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.segment.DecodeContext;
import dev.objlog.internal.cache.ByteWeightedCache;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.internal.metrics.MetricNames;
import dev.objlog.internal.writer.WriterFixtures;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReaderOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The caches (decoded blocks, opened segments, catalog pages) draw from the log's {@link
 * MemoryBudget}: what they keep is admitted and counted by part, a writer that needs their bytes
 * makes them evict on its own thread, closing returns everything, and the readers' native zstd
 * contexts are bounded.
 */
class CachesOnTheMemoryPoolTests {
  private static final int PARTITION = 1;
  private static final int VALUE = 120 << 10;

  private static LogRecord big(int i) {
    byte[] value = new byte[VALUE];
    value[0] = (byte) i;
    value[VALUE - 1] = (byte) (i * 7);
    return LogRecord.of(1_000 + i, value);
  }

  private static ObjlogOptions options(MemoryBudget budget, SimpleMeterRegistry registry) {
    return WriterFixtures.logOptions().memoryBudget(budget).meterRegistry(registry).build();
  }

  /** Writes {@code n} records and waits until they are committed: writers then hold nothing. */
  private static void writeCommitted(Objlog log, int n) {
    try (PartitionWriter w = log.openWriter(PARTITION, WriterFixtures.manualCuts().build())) {
      for (int i = 0; i < n; i++) {
        w.append(big(i));
      }
      w.flush();
    }
  }

  private static List<ReadRecord> readAll(LogReader reader, int n) {
    return reader.partition(PARTITION).read(0, n).records();
  }

  @Test
  void readsAdmitWhatTheyCacheToTheBudgetAndClosingReturnsIt() {
    MemoryBudget budget = MemoryBudget.ofBytes(64L << 20);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Objlog log = Objlog.open(new MemoryObjectStore(), "tests/caches", options(budget, registry));
    try {
      writeCommitted(log, 8);
      assertThat(budget.usedBytes()).as("committed: writers hold nothing").isZero();
      LogReader reader = log.newReader(ReaderOptions.defaults());
      assertThat(readAll(reader, 8)).hasSize(8);

      assertThat(budget.usedBytes(MemoryPart.BLOCKS)).as("the decoded block").isGreaterThan(8L * VALUE);
      assertThat(budget.usedBytes(MemoryPart.SEGMENT_INDEXES)).isPositive();
      assertThat(budget.usedBytes(MemoryPart.CATALOG_PAGES)).isNotNegative();
      assertThat(budget.cachedBytes()).isEqualTo(budget.usedBytes(MemoryPart.BLOCKS)
          + budget.usedBytes(MemoryPart.SEGMENT_INDEXES) + budget.usedBytes(MemoryPart.CATALOG_PAGES));
      assertThat(budget.usedBytesByPart()).containsKeys(MemoryPart.values())
          .containsEntry(MemoryPart.WRITERS, 0L)
          .containsEntry(MemoryPart.BLOCKS, budget.usedBytes(MemoryPart.BLOCKS));
      assertThat(registry.get(MetricNames.MEMORY_USED).tag(MetricNames.TAG_PART, "blocks").gauge().value())
          .isEqualTo((double) budget.usedBytes(MemoryPart.BLOCKS));
      assertThat(registry.get(MetricNames.MEMORY_USED).tag(MetricNames.TAG_PART, "writers").gauge().value())
          .isZero();

      // With memory to spare the cache behaves as before: a second read is served from it.
      double blockReads = registry.get(MetricNames.READER_BLOCK_READS).counter().count();
      assertThat(readAll(reader, 8)).hasSize(8);
      assertThat(registry.get(MetricNames.READER_BLOCK_READS).counter().count()).isEqualTo(blockReads);
      assertThat(budget.reclaimedBytes()).isZero();

      reader.close();
      assertThat(budget.usedBytes(MemoryPart.BLOCKS)).as("a closed reader returns its caches").isZero();
      assertThat(budget.usedBytes(MemoryPart.SEGMENT_INDEXES)).isZero();
    } finally {
      log.close();
    }
    assertThat(budget.cachedBytes()).as("a closed log returns its catalog pages too").isZero();
    assertThat(budget.zstdContexts()).isZero();
  }

  @Test
  void aWriterThatNeedsWhatCachesHoldMakesThemEvictAndProceedsWithoutWaiting() {
    MemoryBudget budget = MemoryBudget.ofBytes(3L << 20);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/caches", options(budget, registry))) {
      writeCommitted(log, 8);
      List<ReadRecord> first = readAll(log.reader(), 8);
      long cached = budget.cachedBytes();
      assertThat(cached).as("caches filled by the read").isGreaterThan(8L * VALUE);

      // Fails rather than waits: an append that had to wait would throw.
      WriterOptions failWhenFull = WriterFixtures.manualCuts()
          .backpressure(new WriterOptions.BackpressurePolicy(1024, (5L << 20) / 2, true)).build();
      try (PartitionWriter w = log.openWriter(PARTITION, failWhenFull)) {
        for (int i = 0; i < 20; i++) {
          w.append(big(100 + i));
        }
        assertThat(budget.usedBytes() + cached).as("writers and caches together would not fit")
            .isGreaterThan(budget.capacityBytes());
        assertThat(budget.reclaimedBytes()).as("caches gave bytes back").isPositive();
        assertThat(budget.cachedBytes()).isLessThan(cached);
        assertThat(budget.usedBytes() + budget.cachedBytes()).isLessThanOrEqualTo(budget.capacityBytes());
        assertThat(budget.writerWaitTime()).isEqualTo(Duration.ZERO);
        assertThat(registry.get(MetricNames.MEMORY_RECLAIMED).functionCounter().count())
            .isEqualTo((double) budget.reclaimedBytes());

        // Reads stay correct while the caches are squeezed.
        assertThat(readAll(log.reader(), 8)).extracting(ReadRecord::lsn)
            .containsExactlyElementsOf(first.stream().map(ReadRecord::lsn).toList());
        w.flush();
      }
      assertThat(budget.usedBytes()).isZero();
    }
    assertThat(budget.cachedBytes()).isZero();
  }

  @Test
  void cachesAreAskedBlocksFirstAndGiveBackTheShortfallPlusTheHeadroom() {
    MemoryPool pool = new MemoryPool(1 << 20);
    ByteWeightedCache<Integer, byte[]> blocks = ByteWeightedCache.create(1 << 20, b -> b.length, pool, MemoryPart.BLOCKS);
    ByteWeightedCache<Integer, byte[]> pages =
        ByteWeightedCache.create(1 << 20, b -> b.length, pool, MemoryPart.CATALOG_PAGES);
    for (int i = 0; i < 8; i++) {
      blocks.put(i, new byte[64 << 10]);
      pages.put(i, new byte[32 << 10]);
    }
    assertThat(pool.held(MemoryPart.BLOCKS)).isEqualTo(8L * (64 << 10)).isEqualTo(blocks.weightedBytes());
    assertThat(pool.held(MemoryPart.CATALOG_PAGES)).isEqualTo(8L * (32 << 10));
    long before = pool.cached();

    MemoryPool.Account writer = pool.open(0);
    long need = 400 << 10;
    assertThat(writer.growTo(need)).as("granted on this thread, after the caches evicted").isTrue();

    long shortfall = need + before - pool.capacity();
    assertThat(pool.reclaimedBytes()).isGreaterThanOrEqualTo(shortfall + pool.headroom());
    assertThat(pool.held(MemoryPart.CATALOG_PAGES)).as("pages are asked last").isEqualTo(8L * (32 << 10));
    assertThat(pool.held(MemoryPart.BLOCKS)).isEqualTo(blocks.weightedBytes()).isEqualTo(before
        - pool.reclaimedBytes() - pool.held(MemoryPart.CATALOG_PAGES));
    assertThat(pool.held() + pool.cached()).isLessThanOrEqualTo(pool.capacity() - pool.headroom());

    // Full beside the writer: a new entry replaces the cache's own cold ones, never the writer's bytes.
    blocks.put(100, new byte[64 << 10]);
    assertThat(blocks.getIfPresent(100)).isNotNull();
    assertThat(pool.held()).isEqualTo(need);
    assertThat(pool.held() + pool.cached()).isLessThanOrEqualTo(pool.capacity() - pool.headroom());

    writer.close();
    blocks.close();
    pages.close();
    assertThat(pool.cached()).isZero();
    assertThat(blocks.weightedBytes()).isZero();
    blocks.put(7, new byte[1]);
    assertThat(blocks.getIfPresent(7)).as("a closed cache keeps nothing").isNull();
  }

  @Test
  void cachesAdmitNothingWhileAWriterWaits() throws InterruptedException {
    MemoryPool pool = new MemoryPool(1 << 20);
    ByteWeightedCache<Integer, byte[]> blocks = ByteWeightedCache.create(1 << 20, b -> b.length, pool, MemoryPart.BLOCKS);
    long seen = pool.generation();
    Thread waiter = new Thread(() -> {
      try {
        pool.awaitChange(seen);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    waiter.start();
    try {
      while (waiter.getState() != Thread.State.WAITING) {
        Thread.onSpinWait();
      }
      assertThat(blocks.get(1, k -> new byte[1024])).hasSize(1024);
      assertThat(blocks.getIfPresent(1)).as("returned, not kept").isNull();
      assertThat(pool.cached()).isZero();
    } finally {
      pool.wakeAll();
      waiter.join();
    }
    blocks.put(1, new byte[1024]);
    assertThat(pool.cached()).isEqualTo(1024);
    blocks.close();
  }

  @Test
  void zstdContextsAreBoundedReusedAndClosed() {
    MemoryPool pool = new MemoryPool(1 << 20);
    ZstdContexts contexts = new ZstdContexts(2, pool);
    DecodeContext a = contexts.borrow();
    DecodeContext b = contexts.borrow();
    DecodeContext c = contexts.borrow();
    assertThat(a.keepsNativeContext()).isTrue();
    assertThat(b.keepsNativeContext()).isTrue();
    assertThat(c.keepsNativeContext()).as("beyond the maximum: zstd makes one per block").isFalse();
    assertThat(pool.zstdContexts()).isEqualTo(2);

    contexts.giveBack(c, false);
    contexts.giveBack(b, false);
    assertThat(contexts.borrow()).as("reused").isSameAs(b);
    contexts.giveBack(a, true);
    assertThat(pool.zstdContexts()).as("a context that saw a failure is freed").isEqualTo(1);

    contexts.close();
    contexts.giveBack(b, false);
    assertThat(pool.zstdContexts()).isZero();
    assertThat(contexts.borrow().keepsNativeContext()).as("closed: keeps none").isFalse();
  }

  @Test
  void aReaderKeepsItsZstdContextsUntilItCloses() {
    MemoryBudget budget = MemoryBudget.ofBytes(64L << 20);
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/caches", options(budget, new SimpleMeterRegistry()))) {
      writeCommitted(log, 4);
      // The log's writers keep their idle compression contexts until the log closes.
      long writers = budget.zstdContexts();
      try (DefaultLogReader reader = (DefaultLogReader) log.newReader(ReaderOptions.defaults())) {
        assertThat(readAll(reader, 4)).hasSize(4);
        assertThat(reader.segments().openContexts()).isEqualTo(1);
        assertThat(budget.zstdContexts()).isEqualTo(writers + 1);
      }
      assertThat(budget.zstdContexts()).isEqualTo(writers);
    }
    assertThat(budget.zstdContexts()).isZero();
  }
}
