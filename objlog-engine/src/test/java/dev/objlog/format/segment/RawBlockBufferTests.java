package dev.objlog.format.segment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The raw buffer of a block follows its records: small blocks hold small buffers, a full block a
 * buffer of the target size, and a recycled whole-block buffer is used for the next block.
 * (That the bytes do not depend on it is what the conformance and round-trip suites check.)
 */
class RawBlockBufferTests {
  private static final int TARGET = 256 << 10;

  private static SegmentRecord record(long lsn, int valueBytes) {
    return new SegmentRecord(lsn, 1, List.of(), new byte[valueBytes]);
  }

  @Test
  void aBlockOfAFewRecordsHoldsABufferOfAboutTheirSizeNotAWholeBlock() {
    RawBlockBuilder b = new RawBlockBuilder(TARGET);
    b.append(record(0, 1000));
    b.append(record(1, 1000));
    RawBlock block = b.takeOpenBlock();
    assertThat(block).isNotNull();
    assertThat(block.buffer().length)
        .isEqualTo(RawBlock.contentOffset() + RawBlockBuilder.INITIAL_BLOCK_BYTES);
  }

  @Test
  void aFullBlockGrowsByDoublingToTheTargetAndNoFurther() {
    RawBlockBuilder b = new RawBlockBuilder(TARGET);
    RawBlock closed = null;
    long lsn = 0;
    while (closed == null) {
      closed = b.append(record(lsn++, 4000));
    }
    assertThat(closed.rawSize()).isGreaterThan(TARGET - 4016).isLessThanOrEqualTo(TARGET);
    assertThat(closed.buffer().length).isEqualTo(RawBlockBuilder.fullBufferLength(TARGET));
  }

  @Test
  void aRecordLargerThanTheTargetGetsABufferOfItsOwnSize() {
    RawBlockBuilder b = new RawBlockBuilder(4096);
    b.append(record(0, 10_000));
    RawBlock block = b.takeOpenBlock();
    assertThat(block.buffer().length).isEqualTo(RawBlock.contentOffset() + 16 + 10_000);
  }

  @Test
  void aRecycledWholeBlockBufferIsUsedForTheNextBlockAndASmallerOneIsNot() {
    RawBlockBuilder b = new RawBlockBuilder(TARGET);
    byte[] small = new byte[RawBlockBuilder.fullBufferLength(TARGET) - 1];
    b.recycle(small);
    assertThat(b.takeSpare()).isNull();
    byte[] whole = new byte[RawBlockBuilder.fullBufferLength(TARGET)];
    b.append(record(0, 100));
    assertThat(b.closesBlock(16 + 100)).isFalse();
    assertThat(b.closesBlock(TARGET)).isTrue();
    b.recycle(whole);
    RawBlock first = b.append(record(1, TARGET - 100));
    assertThat(first).isNotNull();
    RawBlock second = b.takeOpenBlock();
    assertThat(second.buffer()).isSameAs(whole);
  }
}
