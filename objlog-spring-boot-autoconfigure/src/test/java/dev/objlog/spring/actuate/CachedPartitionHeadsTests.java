package dev.objlog.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.SegmentRef;
import dev.objlog.WriterOptions;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's head cache: however many pages ask, the store sees at most one head read per
 * partition per refresh interval (counted with a counting store on virtual elapsed time), and the
 * reachable bytes it adds up match the catalog's segments.
 */
class CachedPartitionHeadsTests {
  private static final Duration REFRESH = Duration.ofSeconds(5);
  private static final int STREAMS = 4;
  private static final int PARTITIONS = 64;

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private CountingObjectStore store;
  private ObjlogStreams streams;
  private CachedPartitionHeads heads;
  private ObjlogEndpoint endpoint;

  @BeforeEach
  void open() {
    store = new CountingObjectStore(new MemoryObjectStore());
    List<ObjlogStream> configured = new ArrayList<>();
    for (int s = 0; s < STREAMS; s++) {
      configured.add(new ObjlogStream("s" + s, "bench/s" + s, PARTITIONS));
    }
    streams = new ObjlogStreams(store, configured, ObjlogOptions.defaults(), ReaderOptions.defaults());
    StoreActivity activity = new StoreActivity();
    heads = new CachedPartitionHeads(streams, activity, REFRESH, nanos::get, Clock.systemUTC());
    endpoint = new ObjlogEndpoint(streams, null, activity);
    endpoint.setCachedHeads(heads);
  }

  @AfterEach
  void close() {
    streams.close();
  }

  @Test
  void anyNumberOfPagesCostsOneHeadReadPerPartitionPerRefreshInterval() {
    writeSegments("s1", 7, 3);
    int partitions = STREAMS * PARTITIONS;

    long before = store.total();
    endpoint.streams("cached");
    long firstRefresh = store.total() - before;
    // One read per partition: a GET of each head (the writer's own head is cached: a conditional GET).
    assertThat(firstRefresh).as("requests of the first refresh: %s", store.byOperation()).isEqualTo(partitions);

    before = store.total();
    for (int page = 0; page < 50; page++) {
      endpoint.streams("cached");
    }
    assertThat(store.total() - before).as("50 more pages within one refresh interval").isZero();

    nanos.addAndGet(REFRESH.toNanos() - 1);
    endpoint.streams("cached");
    assertThat(store.total() - before).as("one nanosecond before the interval ends").isZero();

    nanos.addAndGet(1);
    for (int page = 0; page < 50; page++) {
      endpoint.streams("cached");
    }
    assertThat(store.total() - before).as("50 pages in the next interval: one conditional GET per partition")
        .isEqualTo(partitions);
    // The one written partition asks with its head's token; the others, having no head, ask again.
    assertThat(store.byOperation()).containsEntry("getIfChanged", 2L).doesNotContainKey("list");

    before = store.total();
    endpoint.streams(null);
    assertThat(store.total() - before).as("a plain request still reads every head").isEqualTo(partitions);
  }

  @Test
  @SuppressWarnings("unchecked")
  void reachableBytesFollowNewSegmentsAndRetention() {
    writeSegments("s0", 3, 4);
    assertThat(heads.view("s0", 3).reachableBytes()).isEqualTo(reachableBytes("s0", 3)).isPositive();

    writeSegments("s0", 3, 2);
    assertThat(heads.view("s0", 3).head().nextLsn()).as("cached until the interval ends").isEqualTo(8);
    nanos.addAndGet(REFRESH.toNanos());
    CachedPartitionHeads.View grown = heads.view("s0", 3);
    assertThat(grown.head().nextLsn()).isEqualTo(12);
    assertThat(grown.reachableBytes()).isEqualTo(reachableBytes("s0", 3));

    try (PartitionWriter writer = streams.log("s0").openWriter(3)) {
      streams.log("s0").requestRetention(3, 1, 6);
      writer.applyRetention();
    }
    nanos.addAndGet(REFRESH.toNanos());
    CachedPartitionHeads.View trimmed = heads.view("s0", 3);
    assertThat(trimmed.head().oldestLsn()).isEqualTo(6);
    assertThat(trimmed.reachableBytes()).isEqualTo(reachableBytes("s0", 3)).isLessThan(grown.reachableBytes());

    Map<String, Object> partition = (Map<String, Object>) ((List<Object>) ((Map<String, Object>)
        ((Map<String, Object>) endpoint.streams("cached").get("streams")).get("s0")).get("partitions")).get(3);
    assertThat(partition).containsEntry("reachableBytes", trimmed.reachableBytes()).containsEntry("oldestLsn", 6L)
        .containsKey("headReadAt");
    assertThat(heads.view("s2", 0).head()).as("a partition nobody wrote").isNull();
  }

  /** {@code segments} segments of two records each (cut by flush only, never by the batch's age). */
  private void writeSegments(String stream, int partition, int segments) {
    WriterOptions flushOnly = WriterOptions.builder().batch(Duration.ofHours(1), 1 << 20, 1000).build();
    try (PartitionWriter writer = streams.log(stream).openWriter(partition, flushOnly)) {
      for (int i = 0; i < segments; i++) {
        writer.append(LogRecord.of(System.currentTimeMillis(), "record-" + i + "-a"));
        writer.append(LogRecord.of(System.currentTimeMillis(), "record-" + i + "-b"));
        writer.flush();
      }
    }
  }

  private long reachableBytes(String stream, int partition) {
    return streams.log(stream).segments(partition, 0, 1024).orElseThrow().segments().stream()
        .mapToLong(SegmentRef::sizeBytes).sum();
  }
}
