package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.StaleWriterException;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.read.Freshness;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/** The template on a memory store: durability, partitioning, conversion, timestamps, fencing, failures. */
class ObjlogTemplateTests {
  private static final WriterOptions FAST = WriterOptions.builder().batch(Duration.ofMillis(1), 1L << 20, 1000).build();

  private final MutableClock clock = new MutableClock(1_700_000_000_000L);
  private final StoreActivity activity = new StoreActivity(clock);
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  private ObjlogStreams streams(dev.objlog.store.ObjectStore store) {
    ObjlogStreams streams = new ObjlogStreams(store, List.of(new ObjlogStream("orders", "shop/orders", 4)),
        ObjlogOptions.defaults(), ReaderOptions.defaults());
    closeables.add(streams);
    return streams;
  }

  private ObjlogTemplate template(ObjlogStreams streams, String partitions, boolean reopen) {
    ObjlogTemplate template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.parse(partitions, 4), FAST, reopen)),
        new DefaultRecordValueConverter(new JacksonRecordValueConverter(JsonMapper.builder().build())),
        clock, activity);
    closeables.add(template);
    return template;
  }

  private static SendResult await(CompletableFuture<SendResult> future) throws Exception {
    return future.get(30, TimeUnit.SECONDS);
  }

  private static Throwable failureOf(CompletableFuture<SendResult> future) {
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("the send succeeded");
  }

  @Test
  void theFutureCompletesOnlyOnceTheRecordIsReadableByAnyReader() throws Exception {
    MemoryObjectStore store = new MemoryObjectStore();
    ObjlogTemplate template = template(streams(store), "*", false);
    try (Objlog elsewhere = Objlog.open(store, "shop/orders")) {
      List<CompletableFuture<Optional<ReadRecord>>> seen = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        // Read, inside the completion, through a log that shares nothing with the template's.
        seen.add(template.send("orders", 1, "event-" + i)
            .thenApply(r -> elsewhere.newReader(ReaderOptions.defaults()).partition(1).fetch(r.lsn())));
      }
      for (int i = 0; i < 20; i++) {
        Optional<ReadRecord> record = seen.get(i).get(30, TimeUnit.SECONDS);
        assertThat(record).as("record %d readable when its future completed", i).isPresent();
        assertThat(record.get().valueAsString()).isEqualTo("event-" + i);
        assertThat(record.get().lsn()).isEqualTo(i);
      }
    }
    assertThat(activity.snapshot().lastSuccess()).isNotNull();
  }

  @Test
  void sendResultCarriesStreamPartitionLsnTimestampAndTheCommittedHead() throws Exception {
    ObjlogTemplate template = template(streams(new MemoryObjectStore()), "*", false);
    SendResult first = await(template.send("orders", 2, "a"));
    SendResult second = await(template.send("orders", 2, "b".getBytes(StandardCharsets.UTF_8)));
    assertThat(first.streamName()).isEqualTo("orders");
    assertThat(first.partition()).isEqualTo(2);
    assertThat(first.lsn()).isZero();
    assertThat(second.lsn()).isEqualTo(1);
    assertThat(first.timestampMs()).isEqualTo(clock.millis());
    assertThat(second.committed().nextLsn()).isEqualTo(2);
    assertThat(second.committed().streamId()).isEqualTo("shop/orders");
  }

  @Test
  void keyedSendsGoToTheHashedPartitionAndCarryTheKey() throws Exception {
    ObjlogStreams streams = streams(new MemoryObjectStore());
    ObjlogTemplate template = template(streams, "*", false);
    SendResult result = await(template.send("orders", "order-42", "created"));
    assertThat(result.partition()).isEqualTo(KeyPartitioner.partition("order-42", 4)).isEqualTo(2);
    ReadRecord record = streams.reader("orders").partition(2).fetch(result.lsn()).orElseThrow();
    assertThat(record.headers()).containsExactly(Header.of(ObjlogHeaders.KEY, "order-42"));
  }

  @Test
  void messagesPickStreamAndPartitionFromHeadersAndKeepTheOtherHeaders() throws Exception {
    ObjlogStreams streams = streams(new MemoryObjectStore());
    ObjlogTemplate template = template(streams, "*", false);
    Message<String> message = MessageBuilder.withPayload("paid")
        .setHeader(ObjlogHeaders.STREAM, "orders")
        .setHeader(ObjlogHeaders.PARTITION, 3)
        .setHeader("traceId", "abc")
        .setHeader("attempt", 2)
        .setHeader("raw", new byte[] {1, 2})
        .build();
    SendResult result = await(template.send(message));
    assertThat(result.partition()).isEqualTo(3);
    ReadRecord record = streams.reader("orders").partition(3).fetch(result.lsn()).orElseThrow();
    assertThat(record.valueAsString()).isEqualTo("paid");
    assertThat(record.headers()).containsExactlyInAnyOrder(
        Header.of("traceId", "abc"), Header.of("attempt", "2"),
        Header.of("raw".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2}));

    SendResult keyed = await(template.send(MessageBuilder.withPayload("x")
        .setHeader(ObjlogHeaders.STREAM, "orders").setHeader(ObjlogHeaders.KEY, "order-42").build()));
    assertThat(keyed.partition()).isEqualTo(2);
    SendResult byText = await(template.send(MessageBuilder.withPayload("y")
        .setHeader(ObjlogHeaders.STREAM, "orders").setHeader(ObjlogHeaders.PARTITION, "1").build()));
    assertThat(byText.partition()).isEqualTo(1);
  }

  @Test
  void messagesWithoutStreamOrPartitionAreRejected() {
    ObjlogTemplate template = template(streams(new MemoryObjectStore()), "*", false);
    assertThatThrownBy(() -> template.send(MessageBuilder.withPayload("x").build()))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining(ObjlogHeaders.STREAM);
    assertThatThrownBy(() -> template.send(MessageBuilder.withPayload("x").setHeader(ObjlogHeaders.STREAM, "orders").build()))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("has 4 partitions: set the header objlog_partition or objlog_key");
  }

  record Order(int orderId, String customerName) {}

  @Test
  void objectsAreWrittenAsJsonWithTheGivenMapper() throws Exception {
    ObjlogStreams streams = streams(new MemoryObjectStore());
    JsonMapper snake = JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();
    ObjlogTemplate template = new ObjlogTemplate(streams, Map.of(),
        new DefaultRecordValueConverter(new JacksonRecordValueConverter(snake)), clock, activity);
    closeables.add(template);
    SendResult result = await(template.send("orders", 0, new Order(7, "Ada")));
    assertThat(streams.reader("orders").partition(0).fetch(result.lsn()).orElseThrow().valueAsString())
        .isEqualTo("{\"order_id\":7,\"customer_name\":\"Ada\"}");
  }

  @Test
  void withoutJsonOnlyTextAndBytesConvert() {
    ObjlogTemplate template = new ObjlogTemplate(streams(new MemoryObjectStore()));
    closeables.add(template);
    assertThatThrownBy(() -> template.send("orders", 0, new Order(1, "x")))
        .isInstanceOf(ObjlogConversionException.class)
        .hasMessageContaining("only String, byte[] and ByteBuffer");
  }

  @Test
  void callerErrorsThrowAtOnce() {
    ObjlogTemplate template = template(streams(new MemoryObjectStore()), "0-2", false);
    assertThatThrownBy(() -> template.send("payments", 0, "x"))
        .isInstanceOf(UnknownStreamException.class)
        .hasMessageContaining("no stream is configured under the name 'payments'");
    assertThatThrownBy(() -> template.send("orders", 4, "x"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("stream 'orders' has partitions 0-3, not 4");
    assertThatThrownBy(() -> template.send("orders", 3, "x"))
        .isInstanceOf(PartitionNotWritableException.class)
        .hasMessage("this instance does not write partition 3 of stream 'orders':"
            + " objlog.streams.orders.writer.partitions is \"0-2\"");
    assertThatThrownBy(() -> template.send("orders", 0, new byte[LogRecord.MAX_VALUE_BYTES + 1]))
        .isInstanceOf(InvalidArgumentException.class);
    assertThat(template.writerStatus("orders", 3).state()).isEqualTo(LocalWriterStatus.State.NOT_WRITTEN_HERE);
    assertThat(template.writerStatus("orders", 0).state()).isEqualTo(LocalWriterStatus.State.NOT_OPENED);
  }

  @Test
  void aClockSteppingBackNeverRejectsASend() throws Exception {
    ObjlogStreams streams = streams(new MemoryObjectStore());
    ObjlogTemplate template = template(streams, "*", false);
    clock.set(50_000);
    SendResult a = await(template.send("orders", 0, "a"));
    clock.set(20_000); // NTP stepped the clock back 30 s
    SendResult b = await(template.send("orders", 0, "b"));
    clock.set(60_000);
    SendResult c = await(template.send("orders", 0, "c"));
    assertThat(List.of(a.timestampMs(), b.timestampMs(), c.timestampMs())).containsExactly(50_000L, 50_000L, 60_000L);
    ReadResult read = streams.reader("orders").partition(0).read(0, 10, Freshness.LATEST);
    assertThat(read.records()).extracting(ReadRecord::timestampMs).containsExactly(50_000L, 50_000L, 60_000L);
    template.close();

    // A new writer (a restart) also starts from the newest committed timestamp.
    clock.set(1_000);
    ObjlogTemplate restarted = template(streams, "*", false);
    assertThat(await(restarted.send("orders", 0, "d")).timestampMs()).isEqualTo(60_000L);
  }

  @Test
  void anotherWriterTakingThePartitionOverFailsSendsWithStaleWriterException() throws Exception {
    ObjlogStreams streams = streams(new MemoryObjectStore());
    ObjlogTemplate template = template(streams, "*", false);
    await(template.send("orders", 0, "mine"));

    try (PartitionWriter other = streams.log("orders").openWriter(0)) { // another instance takes over
      assertThat(failureOf(template.send("orders", 0, "lost"))).isInstanceOf(StaleWriterException.class);
      assertThat(template.writerStatus("orders", 0).state()).isEqualTo(LocalWriterStatus.State.FENCED);

      Throwable later = failureOf(template.send("orders", 0, "still lost"));
      assertThat(later).isInstanceOf(StaleWriterException.class)
          .hasMessageContaining("objlog.streams.orders.writer.reopen-after-fence-loss=true");
      // The other writer keeps the partition; other partitions are unaffected.
      assertThat(other.append(LogRecord.of(clock.millis(), "theirs")).committed().get(30, TimeUnit.SECONDS).nextLsn())
          .isEqualTo(2);
      assertThat(await(template.send("orders", 1, "fine")).partition()).isEqualTo(1);
    }
  }

  @Test
  void withReopenConfiguredTheNextSendTakesThePartitionBack() throws Exception {
    ObjlogStreams streams = streams(new MemoryObjectStore());
    ObjlogTemplate template = template(streams, "*", true);
    await(template.send("orders", 0, "mine"));
    PartitionWriter other = streams.log("orders").openWriter(0);
    closeables.add(other::abort);
    assertThat(failureOf(template.send("orders", 0, "lost"))).isInstanceOf(StaleWriterException.class);

    SendResult back = await(template.send("orders", 0, "back"));
    assertThat(back.lsn()).isEqualTo(1);
    assertThat(template.writerStatus("orders", 0).opens()).isEqualTo(2);
    assertThat(template.writerStatus("orders", 0).state()).isEqualTo(LocalWriterStatus.State.OPEN);
    assertThat(other.append(LogRecord.of(clock.millis(), "theirs")).committed())
        .failsWithin(Duration.ofSeconds(30))
        .withThrowableThat()
        .withCauseInstanceOf(StaleWriterException.class);
  }

  @Test
  void storeFailuresFailTheFutureAndTheNextSendOpensANewWriter() throws Exception {
    FaultInjectingObjectStore store = FaultInjectingObjectStore.builder(new MemoryObjectStore()).build();
    ObjlogStreams streams = streams(store);
    WriterOptions impatient = WriterOptions.builder()
        .batch(Duration.ofMillis(1), 1L << 20, 1000)
        .timeouts(new WriterOptions.Timeouts(Duration.ofMillis(300), Duration.ofMillis(300)))
        .build();
    ObjlogTemplate template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.all(4), impatient, false)),
        new DefaultRecordValueConverter(null), clock, activity);
    closeables.add(template);
    await(template.send("orders", 0, "ok"));

    String segments = PartitionKeys.of(KeyPrefixes.resolve(""), "shop/orders", 0).segmentsDir();
    store.addRule(new FaultRule(Set.of(Operation.UPLOAD, Operation.PUT_IF_ABSENT), segments, Fault.ERROR_BEFORE, 1_000_000));
    Throwable failure = failureOf(template.send("orders", 0, "never"));
    assertThat(StoreActivity.storeCause(failure)).as("store failure in %s", failure).isNotNull();
    assertThat(template.writerStatus("orders", 0).state()).isEqualTo(LocalWriterStatus.State.FAILED);
    assertThat(activity.snapshot().failingSince()).isNotNull();

    store.clearRules();
    SendResult recovered = await(template.send("orders", 0, "again"));
    assertThat(recovered.lsn()).isEqualTo(1);
    assertThat(template.writerStatus("orders", 0).opens()).isEqualTo(2);
    assertThat(activity.snapshot().failingSince()).isNull();
  }

  @Test
  void flushWaitsForEverySendAndCloseFlushesAndStops() throws Exception {
    ObjlogStreams streams = streams(new MemoryObjectStore());
    ObjlogTemplate template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.all(4),
            WriterOptions.builder().batch(Duration.ofHours(1), 1L << 20, 1000).build(), false)),
        new DefaultRecordValueConverter(null), clock, activity);
    CompletableFuture<SendResult> a = template.send("orders", 0, "a");
    CompletableFuture<SendResult> b = template.send("orders", 1, "b");
    assertThat(a).isNotDone();
    template.flush();
    assertThat(a).isCompleted();
    assertThat(b).isCompleted();

    CompletableFuture<SendResult> c = template.send("orders", 2, "c");
    template.close();
    assertThat(c).isCompleted();
    assertThat(streams.reader("orders").partition(2).read(0, 10, Freshness.LATEST).records()).hasSize(1);
    assertThat(template.writerStatus("orders", 2).state()).isEqualTo(LocalWriterStatus.State.CLOSED);
    assertThat(failureOf(template.send("orders", 0, "late"))).isInstanceOf(WriterClosedException.class);
  }
}
