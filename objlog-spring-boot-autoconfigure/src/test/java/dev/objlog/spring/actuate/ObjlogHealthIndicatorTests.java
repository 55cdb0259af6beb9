package dev.objlog.spring.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.core.DefaultRecordValueConverter;
import dev.objlog.spring.core.MutableClock;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.PartitionSet;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.spring.core.StreamWriterSettings;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

class ObjlogHealthIndicatorTests {
  private final MutableClock clock = new MutableClock(1_700_000_000_000L);
  private final StoreActivity activity = new StoreActivity(clock);
  private MemoryObjectStore store;
  private ObjlogStreams streams;
  private ObjlogTemplate template;
  private ObjlogHealthIndicator health;

  @BeforeEach
  void open() {
    store = new MemoryObjectStore();
    streams = new ObjlogStreams(store, List.of(new ObjlogStream("orders", "orders", 2)), ObjlogOptions.defaults(),
        ReaderOptions.defaults());
    template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.all(2),
            WriterOptions.builder().batch(Duration.ofMillis(1), 1 << 20, 1000).build(), false)),
        new DefaultRecordValueConverter(null), clock, activity);
    health = new ObjlogHealthIndicator(template, activity, Duration.ofMinutes(1), clock);
  }

  @AfterEach
  void close() {
    template.close();
    streams.close();
  }

  @Test
  void upWithWorkingWriters() throws Exception {
    template.send("orders", 0, "x").get(30, TimeUnit.SECONDS);
    Health h = health.health();
    assertThat(h.getStatus()).isEqualTo(Status.UP);
    assertThat(h.getDetails()).containsEntry("openWriters", 1).doesNotContainKey("problems");
  }

  @Test
  @SuppressWarnings("unchecked")
  void downWhenAWriterIsFencedOut() throws Exception {
    template.send("orders", 1, "x").get(30, TimeUnit.SECONDS);
    try (PartitionWriter other = streams.log("orders").openWriter(1)) {
      template.send("orders", 1, "lost").exceptionally(e -> null).get(30, TimeUnit.SECONDS);
      Health h = health.health();
      assertThat(h.getStatus()).isEqualTo(Status.DOWN);
      assertThat((Map<String, Object>) h.getDetails().get("problems")).containsKey("orders/1");
      assertThat(((Map<String, Object>) h.getDetails().get("problems")).get("orders/1")).asString().contains("fenced out");
    }
  }

  @Test
  void downOnlyOnceTheStoreFailedForLongerThanTheThreshold() {
    activity.success();
    activity.failure(new TransientStoreException("connection refused", false));
    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    clock.advance(Duration.ofSeconds(59).toMillis());
    activity.failure(new TransientStoreException("connection refused", false));
    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
    clock.advance(Duration.ofSeconds(2).toMillis());
    Health down = health.health();
    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
    assertThat(down.getDetails().get("problems")).asString().contains("unreachable since").contains("connection refused");
    activity.success();
    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void failuresThatAreNotTheStoresDoNotCount() {
    activity.failure(new IllegalStateException("not a store failure"));
    clock.advance(Duration.ofHours(1).toMillis());
    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void theProbeRecordsTheStoresAnswers() {
    StoreProbe probe = new StoreProbe(store, "objlog", activity, Duration.ofSeconds(30));
    probe.probe();
    assertThat(activity.snapshot().lastSuccess()).isEqualTo(clock.instant());
    assertThat(store.list("objlog/", 10).entries()).isEmpty();
  }
}
