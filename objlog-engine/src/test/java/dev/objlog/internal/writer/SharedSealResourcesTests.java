package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.MemoryBudget;
import dev.objlog.Objlog;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.BlockSealer;
import dev.objlog.format.segment.Codec;
import dev.objlog.format.segment.RawBlockBuilder;
import dev.objlog.internal.memory.MemoryPool;
import dev.objlog.store.memory.MemoryObjectStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sealers and spare block buffers the writers of one log share: native zstd contexts follow
 * the seals running at once, not the number of writers, are counted in the budget's {@code
 * zstdContexts}, and are all freed when the log closes.
 */
class SharedSealResourcesTests {
  private static final int BLOCK = 64 << 10;

  private static WriterOptions zstdWriter() {
    return WriterFixtures.manualCuts()
        .pipeline(new WriterOptions.Pipeline(BLOCK, Codec.ZSTD, 1, HashAlgorithm.XXH64, null)).build();
  }

  @Test
  void manyWritersOpenedAndClosedKeepAtMostTheIdleContextsAndTheLogsCloseFreesThemAll() {
    MemoryBudget budget = MemoryBudget.ofBytes(256L << 20);
    Objlog log = Objlog.open(new MemoryObjectStore(), "tests/seal-contexts", logOptions().memoryBudget(budget).build());
    SealResources resources = ObjlogTestAccess.runtime(log).sealResources();
    try {
      for (int p = 0; p < 40; p++) {
        PartitionWriter w = log.openWriter(p, zstdWriter());
        // Several blocks per segment, so each writer seals with more than one context at once.
        for (int i = 0; i < 8; i++) {
          w.append(LogRecord.of(1, new byte[BLOCK / 2]));
        }
        await(w.flushAsync());
        w.close();
        assertThat(budget.zstdContexts()).isBetween(1L, (long) resources.maxIdle());
      }
      assertThat(budget.zstdContexts()).isEqualTo(resources.openSealers());
    } finally {
      log.close();
    }
    assertThat(budget.zstdContexts()).isZero();
    assertThat(resources.openSealers()).isZero();
    assertThat(resources.spareBuffers()).isZero();
  }

  @Test
  void sealersGivenBackBeyondTheIdleLimitAreFreedAndCountedOut() {
    MemoryPool pool = new MemoryPool(1 << 20);
    SealResources resources = new SealResources(pool, 2);
    List<BlockSealer> lent = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lent.add(resources.borrow(Codec.ZSTD, 1, HashAlgorithm.XXH64));
    }
    assertThat(pool.zstdContexts()).isEqualTo(5);
    lent.forEach(resources::giveBack);
    assertThat(pool.zstdContexts()).isEqualTo(2);
    assertThat(resources.openSealers()).isEqualTo(2);

    BlockSealer again = resources.borrow(Codec.ZSTD, 1, HashAlgorithm.XXH64);
    assertThat(lent).contains(again);
    assertThat(pool.zstdContexts()).isEqualTo(2);
    resources.close();
    assertThat(pool.zstdContexts()).isEqualTo(1);
    resources.giveBack(again);
    assertThat(pool.zstdContexts()).isZero();
    assertThat(resources.openSealers()).isZero();
  }

  @Test
  void aSealerOfAnotherLevelIsNotLentForThisOne() {
    MemoryPool pool = new MemoryPool(1 << 20);
    SealResources resources = new SealResources(pool, 4);
    BlockSealer level3 = resources.borrow(Codec.ZSTD, 3, HashAlgorithm.XXH64);
    resources.giveBack(level3);
    BlockSealer level1 = resources.borrow(Codec.ZSTD, 1, HashAlgorithm.XXH64);
    assertThat(level1).isNotSameAs(level3);
    assertThat(level1.zstdLevel()).isEqualTo(1);
    BlockSealer none = resources.borrow(Codec.NONE, 0, HashAlgorithm.XXH64);
    assertThat(pool.zstdContexts()).as("a codec-none sealer keeps no native context").isEqualTo(2);
    resources.giveBack(level1);
    resources.giveBack(none);
    resources.close();
    assertThat(pool.zstdContexts()).isZero();
  }

  @Test
  void sparesAreBoundedAndOnlyLentWhenTheyHoldAWholeBlock() {
    SealResources resources = new SealResources(new MemoryPool(1 << 20), 2);
    int whole = RawBlockBuilder.fullBufferLength(BLOCK);
    resources.offerSpare(new byte[whole]);
    resources.offerSpare(new byte[whole]);
    resources.offerSpare(new byte[whole]);
    assertThat(resources.spareBuffers()).isEqualTo(2);
    assertThat(resources.takeSpare(2 * whole)).as("too small for a larger block").isNull();
    assertThat(resources.spareBuffers()).isZero();
    resources.offerSpare(new byte[whole]);
    assertThat(resources.takeSpare(whole)).hasSize(whole);
    resources.close();
    resources.offerSpare(new byte[whole]);
    assertThat(resources.spareBuffers()).as("nothing kept after the log closed").isZero();
  }

  @Test
  void aWriterOfShortBatchesKeepsNoWholeBlockSpareAndOneThatFillsBlocksDoes() {
    MemoryBudget budget = MemoryBudget.ofBytes(256L << 20);
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/seal-spares",
        logOptions().memoryBudget(budget).build())) {
      SealResources resources = ObjlogTestAccess.runtime(log).sealResources();
      PartitionWriter w = log.openWriter(0, zstdWriter());
      for (int i = 0; i < 20; i++) {
        w.append(LogRecord.of(1, new byte[1024]));
        await(w.flushAsync());
      }
      assertThat(resources.spareBuffers()).as("a block of one record frees a buffer of its size, not a block's")
          .isZero();
      for (int i = 0; i < 16; i++) {
        w.append(LogRecord.of(1, new byte[BLOCK / 4]));
      }
      await(w.flushAsync());
      assertThat(resources.spareBuffers()).isBetween(1, resources.maxIdle());
      w.close();
    }
  }
}
