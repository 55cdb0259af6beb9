package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.read.ReadRecord;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.testing.Await;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.MethodParameter;
import org.springframework.messaging.Message;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Headers;
import org.springframework.messaging.handler.annotation.Payload;
import org.springframework.messaging.handler.annotation.support.MethodArgumentNotValidException;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.util.backoff.FixedBackOff;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;
import org.springframework.validation.annotation.Validated;

/**
 * Listener arguments resolved through spring-messaging, on real contexts and the memory store:
 * {@code Message<T>}, {@code @Payload}, {@code @Header} with Spring's conversion, a resolver of an
 * {@link ObjlogListenerConfigurer}, and a validated payload that goes to the recoverer untried.
 */
class ListenerArgumentResolutionTests {
  private static final long WAIT = 30;

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
          ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
          ObjlogListenerAutoConfiguration.class))
      .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=1",
          "objlog.streams.orders.writer.batch.max-delay=1ms", "objlog.streams.dlt.partitions=1",
          "objlog.streams.dlt.writer.batch.max-delay=1ms",
          "objlog.listener.poll-interval=1h", "objlog.listener.back-off.interval=0");

  record Order(String id, int amount) {}

  /** A value type only a custom resolver can produce. */
  record Tenant(String name) {}

  static final class Received {
    final BlockingQueue<Object> values = new LinkedBlockingQueue<>();

    Object take() throws InterruptedException {
      Object value = values.poll(WAIT, TimeUnit.SECONDS);
      assertThat(value).as("an invocation within %ss", WAIT).isNotNull();
      return value;
    }
  }

  private static void send(ObjlogTemplate template, Object payload, Map<String, Object> headers) throws Exception {
    template.send(MessageBuilder.withPayload(payload).copyHeaders(headers)
        .setHeader(ObjlogHeaders.STREAM, "orders").setHeader(ObjlogHeaders.PARTITION, 0).build())
        .get(WAIT, TimeUnit.SECONDS);
  }

  static class MessageListener {
    final Received received = new Received();

    @ObjlogListener(id = "messages", stream = "orders")
    void on(Message<Order> message) {
      received.values.add(message);
    }
  }

  @Test
  void aMessageParameterGetsTheConvertedPayloadWithRecordAndObjlogHeaders() throws Exception {
    runner.withBean(MessageListener.class).run(context -> {
      send(context.getBean(ObjlogTemplate.class), new Order("o1", 3), Map.of("trace", "t-1"));
      Message<?> message = (Message<?>) context.getBean(MessageListener.class).received.take();
      assertThat(message.getPayload()).isEqualTo(new Order("o1", 3));
      assertThat(message.getHeaders()).containsEntry("trace", "t-1")
          .containsEntry(ObjlogHeaders.STREAM, "orders")
          .containsEntry(ObjlogHeaders.PARTITION, 0)
          .containsEntry(ObjlogHeaders.LSN, 0L)
          .containsKey(ObjlogHeaders.TIMESTAMP);
    });
  }

  static class AnnotatedListener {
    final Received received = new Received();

    @ObjlogListener(id = "annotated", stream = "orders")
    void on(@Payload Order order, @Header("count") int count, @Header(ObjlogHeaders.LSN) String lsn,
        @Header(name = "missing", defaultValue = "fallback") String missing, @Header("raw") byte[] raw,
        @Headers Map<String, Object> headers, ReadRecord record) {
      received.values.add(List.of(order, count, lsn, missing, new String(raw, java.nio.charset.StandardCharsets.UTF_8),
          headers.get("count"), record.lsn()));
    }
  }

  @Test
  void payloadAndHeaderParametersAreConvertedToTheirTypes() throws Exception {
    runner.withBean(AnnotatedListener.class).run(context -> {
      send(context.getBean(ObjlogTemplate.class), new Order("o2", 5),
          Map.of("count", "7", "raw", "bytes".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
      assertThat(context.getBean(AnnotatedListener.class).received.take())
          .isEqualTo(List.of(new Order("o2", 5), 7, "0", "fallback", "bytes", "7", 0L));
    });
  }

  static class TenantListener {
    final Received received = new Received();

    @ObjlogListener(id = "tenants", stream = "orders")
    void on(String value, Tenant tenant) {
      received.values.add(tenant.name() + ":" + value);
    }
  }

  /** Resolves a {@link Tenant} from the record header "tenant". */
  static final class TenantResolver implements HandlerMethodArgumentResolver {
    @Override
    public boolean supportsParameter(MethodParameter parameter) {
      return parameter.getParameterType() == Tenant.class;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, Message<?> message) {
      ReadRecord record = ((RecordMessage) message).record();
      return new Tenant(record.headers().stream().filter(h -> h.keyAsString().equals("tenant"))
          .map(h -> h.valueAsString()).findFirst().orElse("none"));
    }
  }

  @Test
  void aConfigurersResolverTakesItsParameterAndLeavesThePayloadToObjlog() throws Exception {
    ObjlogListenerConfigurer configurer = new ObjlogListenerConfigurer() {
      @Override
      public void configureArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(new TenantResolver());
      }
    };
    runner.withBean(TenantListener.class).withBean(ObjlogListenerConfigurer.class, () -> configurer).run(context -> {
      send(context.getBean(ObjlogTemplate.class), "hello", Map.of("tenant", "acme"));
      assertThat(context.getBean(TenantListener.class).received.take()).isEqualTo("acme:hello");
    });
  }

  @Test
  void withoutTheResolverTheSameMethodFailsStartupAsHavingTwoPayloads() {
    runner.withBean(TenantListener.class).run(context ->
        assertThat(context).getFailure().hasMessageContaining("has more than one payload parameter"));
  }

  static class ValidatedListener {
    final Received received = new Received();

    @ObjlogListener(id = "validated", stream = "orders")
    void on(@Payload @Validated Order order) {
      received.values.add(order);
    }
  }

  /** A plain Spring Validator (no Bean Validation provider needed): amounts must be positive. */
  static final class PositiveAmounts implements Validator {
    @Override
    public boolean supports(Class<?> type) {
      return type == Order.class;
    }

    @Override
    public void validate(Object target, Errors errors) {
      if (((Order) target).amount() <= 0) {
        errors.rejectValue("amount", "positive", "must be positive");
      }
    }
  }

  @Test
  void aPayloadTheValidatorRejectsGoesToTheRecovererWithoutRetriesAndTheListenerGoesOn() throws Exception {
    runner.withBean(ValidatedListener.class).withBean(Validator.class, PositiveAmounts::new)
        .withUserConfiguration(DeadLetters.class)
        .run(context -> {
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          send(template, new Order("bad", -1), Map.of());
          send(template, new Order("good", 2), Map.of());
          assertThat(context.getBean(ValidatedListener.class).received.take()).isEqualTo(new Order("good", 2));
          ObjlogStreams streams = context.getBean(ObjlogStreams.class);
          Await.until("a dead letter", () -> !streams.reader("dlt").partition(0).read(0, 10).records().isEmpty());
          ReadRecord letter = streams.reader("dlt").partition(0).read(0, 10).records().get(0);
          Map<String, String> headers = new java.util.HashMap<>();
          letter.headers().forEach(h -> headers.put(h.keyAsString(), h.valueAsString()));
          assertThat(headers).containsEntry("objlog_dlt_exception", MethodArgumentNotValidException.class.getName())
              .containsEntry("objlog_dlt_attempts", "1");
          assertThat(headers.get("objlog_dlt_message")).contains("amount");
        });
  }

  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class DeadLetters {
    @org.springframework.context.annotation.Bean
    ListenerErrorHandler deadLetterHandler(ObjlogTemplate template) {
      return new DefaultListenerErrorHandler(new FixedBackOff(0, 5), new DeadLetterRecoverer(template, "dlt"));
    }
  }

  static class BatchWithHeader {
    @ObjlogListener(id = "batch-header", stream = "orders", batch = "true")
    void on(List<String> values, @Header(ObjlogHeaders.LSN) long lsn) {}
  }

  @Test
  void aBatchListenerWithAHeaderParameterFailsStartupNamingTheAlternative() {
    runner.withBean(BatchWithHeader.class).run(context -> assertThat(context).getFailure()
        .hasMessageContaining("@Header is not supported in batch mode; take List<ReadRecord> instead"));
  }

  static class EmptyValues {
    final Received received = new Received();

    @ObjlogListener(id = "empty", stream = "orders")
    void on(@Payload(required = false) Order order, @Header(ObjlogHeaders.LSN) long lsn) {
      received.values.add(order == null ? "null@" + lsn : order.id());
    }
  }

  @Test
  void anOptionalPayloadIsNullForAnEmptyValue() throws Exception {
    runner.withBean(EmptyValues.class).run(context -> {
      context.getBean(ObjlogTemplate.class).send("orders", 0, new byte[0]).get(WAIT, TimeUnit.SECONDS);
      assertThat(context.getBean(EmptyValues.class).received.take()).isEqualTo("null@0");
    });
  }
}
