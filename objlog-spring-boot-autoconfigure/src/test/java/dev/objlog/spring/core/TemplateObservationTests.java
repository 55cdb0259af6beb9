package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import dev.objlog.LogRecord;
import dev.objlog.ObjlogOptions;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.read.Freshness;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReaderOptions;
import dev.objlog.spring.tracing.TestTracer;
import dev.objlog.store.memory.MemoryObjectStore;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.support.MessageBuilder;

/**
 * The template's {@code objlog.template} observation: off unless enabled, stopped with the send's
 * outcome, and trace headers that a full record cannot carry skipped and counted.
 */
class TemplateObservationTests {
  private static final WriterOptions FAST = WriterOptions.builder().batch(Duration.ofMillis(1), 1L << 20, 1000).build();

  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
  private final TestTracer tracer = new TestTracer();
  private final ObservationRegistry registry = ObservationRegistry.create();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private ObjlogStreams streams;

  TemplateObservationTests() {
    registry.observationConfig().observationHandler(tracer).observationHandler(new ObservationHandler<>() {
      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }

      @Override
      public void onStop(Observation.Context context) {
        stopped.add(context);
      }
    });
  }

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  private ObjlogTemplate template(boolean observationEnabled) {
    streams = new ObjlogStreams(new MemoryObjectStore(), List.of(new ObjlogStream("orders", "shop/orders", 2)),
        ObjlogOptions.defaults(), ReaderOptions.defaults());
    closeables.add(streams);
    ObjlogTemplate template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.parse("*", 2), FAST, false)),
        new DefaultRecordValueConverter(null), new MutableClock(1_700_000_000_000L), new StoreActivity());
    closeables.add(template);
    template.setObservationRegistry(registry);
    template.setMeterRegistry(meters);
    template.setObservationEnabled(observationEnabled);
    return template;
  }

  private ReadRecord readBack(int partition, long lsn) {
    return streams.reader("orders").partition(partition).read(lsn, 1, Freshness.LATEST).records().get(0);
  }

  private static boolean hasTraceHeader(ReadRecord record) {
    return record.headers().stream().anyMatch(h -> h.keyAsString().equals(TestTracer.TRACEPARENT));
  }

  @Test
  void sendsAreNotObservedUnlessEnabled() throws Exception {
    ObjlogTemplate template = template(false);
    SendResult sent = template.send("orders", 1, "a").get(30, TimeUnit.SECONDS);

    assertThat(stopped).isEmpty();
    assertThat(readBack(1, sent.lsn()).headers()).isEmpty();
  }

  @Test
  void anEnabledSendIsObservedUntilCommittedAndCarriesTheTraceInItsHeaders() throws Exception {
    ObjlogTemplate template = template(true);
    SendResult sent = template.send("orders", "customer-7", "a").get(30, TimeUnit.SECONDS);

    assertThat(stopped).hasSize(1); // the future completes after the observation stopped
    ObjlogTemplateSenderContext context = (ObjlogTemplateSenderContext) stopped.get(0);
    assertThat(context.getName()).isEqualTo("objlog.template");
    assertThat(context.getContextualName()).isEqualTo("orders send");
    assertThat(context.getLowCardinalityKeyValues())
        .containsExactlyInAnyOrder(KeyValue.of("objlog.stream", "orders"), KeyValue.of("objlog.outcome", "success"));
    assertThat(context.getHighCardinalityKeyValues()).containsExactlyInAnyOrder(
        KeyValue.of("objlog.partition", Integer.toString(sent.partition())),
        KeyValue.of("objlog.lsn", Long.toUnsignedString(sent.lsn())));
    assertThat(context.getResult()).isEqualTo(sent);

    ReadRecord record = readBack(sent.partition(), sent.lsn());
    TestTracer.Span span = tracer.finished("objlog.template");
    assertThat(record.headers()).containsExactly(Header.of(ObjlogHeaders.KEY, "customer-7"),
        Header.of(TestTracer.TRACEPARENT, "00-" + span.traceId() + "-" + span.spanId() + "-01"));
    assertThat(meters.find(TemplateObservations.TRACE_HEADERS_SKIPPED).counter()).isNull();
  }

  @Test
  void aSendThatThrowsIsObservedAsAFailure() {
    ObjlogTemplate template = template(true);
    byte[] tooLarge = new byte[LogRecord.MAX_VALUE_BYTES + 1];

    assertThatThrownBy(() -> template.send("orders", 0, tooLarge)).isInstanceOf(InvalidArgumentException.class);

    assertThat(stopped).hasSize(1);
    assertThat(stopped.get(0).getError()).isInstanceOf(InvalidArgumentException.class);
    assertThat(stopped.get(0).getLowCardinalityKeyValues()).contains(KeyValue.of("objlog.outcome", "failure"));
    assertThat(tracer.finished("objlog.template").error()).isTrue();
  }

  @Test
  void aSendWhoseFutureFailsIsObservedAsAFailure() throws Exception {
    ObjlogTemplate template = template(true);
    template.close();

    CompletableFuture<SendResult> sent = template.send("orders", 0, "a");

    assertThat(sent).failsWithin(30, TimeUnit.SECONDS);
    assertThat(stopped).hasSize(1);
    assertThat(stopped.get(0).getError()).isInstanceOf(WriterClosedException.class);
    assertThat(stopped.get(0).getLowCardinalityKeyValues()).contains(KeyValue.of("objlog.outcome", "failure"));
  }

  @Test
  void aRecordWithAllTheHeadersItMayCarryIsSentWithoutTheTraceHeaderWhichIsCounted() throws Exception {
    ObjlogTemplate template = template(true);
    MessageBuilder<String> message = MessageBuilder.withPayload("a").setHeader(ObjlogHeaders.STREAM, "orders")
        .setHeader(ObjlogHeaders.PARTITION, 0);
    for (int i = 0; i < LogRecord.MAX_HEADERS; i++) {
      message.setHeader("h" + i, "v");
    }

    SendResult sent = template.send(message.build()).get(30, TimeUnit.SECONDS);

    ReadRecord record = readBack(0, sent.lsn());
    assertThat(record.headers()).hasSize(LogRecord.MAX_HEADERS);
    assertThat(hasTraceHeader(record)).isFalse();
    assertThat(meters.get(TemplateObservations.TRACE_HEADERS_SKIPPED).tag("stream", "orders").counter().count())
        .isEqualTo(1.0);
    assertThat(stopped.get(0).getError()).isNull();
  }

  @Test
  void aRecordWhoseHeadersAreaIsAlmostFullIsSentWithoutTheTraceHeaderWhichIsCounted() throws Exception {
    ObjlogTemplate template = template(true);
    // Three largest values and a fourth leaving 30 bytes of the area: too few for a traceparent.
    int largest = Header.MAX_VALUE_BYTES;
    int used = 2 + 3 * (4 + 2 + largest);
    int fourth = LogRecord.MAX_HEADER_BYTES - used - (4 + 2) - 30;
    MessageBuilder<String> message = MessageBuilder.withPayload("a").setHeader(ObjlogHeaders.STREAM, "orders")
        .setHeader(ObjlogHeaders.PARTITION, 0)
        .setHeader("h0", new byte[largest]).setHeader("h1", new byte[largest]).setHeader("h2", new byte[largest])
        .setHeader("h3", new byte[fourth]);

    SendResult sent = template.send(message.build()).get(30, TimeUnit.SECONDS);

    assertThat(hasTraceHeader(readBack(0, sent.lsn()))).isFalse();
    assertThat(meters.get(TemplateObservations.TRACE_HEADERS_SKIPPED).tag("stream", "orders").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void aTraceHeaderTheRecordHasAlreadyIsReplaced() throws Exception {
    ObjlogTemplate template = template(true);
    SendResult sent = template.send(MessageBuilder.withPayload("a").setHeader(ObjlogHeaders.STREAM, "orders")
        .setHeader(ObjlogHeaders.PARTITION, 0).setHeader(TestTracer.TRACEPARENT, "stale").build())
        .get(30, TimeUnit.SECONDS);

    List<Header> headers = readBack(0, sent.lsn()).headers();
    assertThat(headers).hasSize(1);
    assertThat(headers.get(0).valueAsString()).startsWith("00-").isNotEqualTo("stale");
  }
}
