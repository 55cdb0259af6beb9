package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.read.LogReader;
import dev.objlog.read.ReaderClosedException;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.Watch;
import dev.objlog.store.memory.MemoryObjectStore;
import org.junit.jupiter.api.Test;

/** How readers are obtained from a log and closed with it. */
class ObjlogReaderLifecycleTests {

  @Test
  void theSharedReaderIsOneInstanceAndClosesWithTheLog() {
    Objlog log = Objlog.open(new MemoryObjectStore(), "demo/orders");
    LogReader shared = log.reader();
    assertThat(log.reader()).isSameAs(shared);
    LogReader own = log.newReader(ReaderOptions.builder().maxRecordsPerBatch(10).build());
    assertThat(own).isNotSameAs(shared);
    assertThat(own.options().maxRecordsPerBatch()).isEqualTo(10);
    Watch watch = own.watch(1);

    log.close();

    assertThatThrownBy(() -> shared.partition(0)).isInstanceOf(ReaderClosedException.class);
    assertThatThrownBy(() -> own.head(0)).isInstanceOf(ReaderClosedException.class);
    assertThatThrownBy(() -> watch.tail(1, 0, 0)).isInstanceOf(dev.objlog.read.WatchClosedException.class);
    assertThatThrownBy(log::reader).isInstanceOf(ObjlogException.class).hasMessageContaining("closed");
  }

  @Test
  void aReaderClosedOnItsOwnLeavesTheLogUsable() {
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "demo/orders")) {
      log.initializePartition(2, 5);
      LogReader own = log.newReader(ReaderOptions.defaults());
      own.close();
      own.close();
      assertThatThrownBy(() -> own.partition(2)).isInstanceOf(ReaderClosedException.class);
      assertThat(log.reader().head(2).nextLsn()).isEqualTo(5);
    }
  }

  @Test
  void readerOptionsRefuseValuesOutsideTheirRange() {
    assertThatThrownBy(() -> ReaderOptions.builder().maxRecordsPerBatch(0).build())
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("maxRecordsPerBatch");
    assertThatThrownBy(() -> ReaderOptions.builder().pollInterval(java.time.Duration.ZERO).build())
        .hasMessageContaining("pollInterval");
    assertThatThrownBy(() -> ReaderOptions.builder().maxConcurrentRefreshes(0).build())
        .hasMessageContaining("maxConcurrentRefreshes");
    assertThatThrownBy(() -> ReaderOptions.builder().blockCacheBytes(-1).build())
        .hasMessageContaining("cache budgets");
    assertThatThrownBy(() -> ReaderOptions.builder().readAheadBlocks(-1).build())
        .hasMessageContaining("readAheadBlocks");
    ReaderOptions d = ReaderOptions.defaults();
    assertThat(d.maxRecordsPerBatch()).isEqualTo(1024);
    assertThat(d.pollInterval()).hasSeconds(1);
    assertThat(d.maxConcurrentRefreshes()).isEqualTo(16);
    assertThat(d.refreshTimeout()).hasSeconds(5);
    assertThat(d.toBuilder().build()).isEqualTo(d);
  }
}
