package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.read.ReadRecord;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.testing.Await;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Retries owned by the error handler, on real contexts and the memory store. The container's
 * sleeper records each back-off interval instead of waiting it out, so intervals of seconds are
 * counted without a test ever sleeping.
 */
class ListenerErrorHandlerRetryTests {
  private static final long WAIT = 30;

  private final InMemoryCheckpointRepository checkpoints = new InMemoryCheckpointRepository();
  /** Every interval a partition was asked to wait, in order. */
  private final List<Long> waits = new CopyOnWriteArrayList<>();

  private ApplicationContextRunner runner() {
    BeanPostProcessor countWaits = new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof ObjlogListenerContainerFactory factory) {
          factory.setSleeper(waits::add);
        }
        return bean;
      }
    };
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(CheckpointRepository.class, () -> checkpoints)
        .withBean("countWaits", BeanPostProcessor.class, () -> countWaits)
        .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.partitions=1",
            "objlog.streams.orders.writer.batch.max-delay=1ms", "objlog.streams.dlt.partitions=1",
            "objlog.streams.dlt.writer.batch.max-delay=1ms", "objlog.listener.poll-interval=1h");
  }

  static final BlockingQueue<String> received = new LinkedBlockingQueue<>();

  private static String take() throws InterruptedException {
    String value = received.poll(WAIT, TimeUnit.SECONDS);
    assertThat(value).as("a record within %ss", WAIT).isNotNull();
    return value;
  }

  private Long checkpoint(String owner) {
    return checkpoints.load(CheckpointKey.of(owner, "orders", 0)).map(s -> s.checkpoint().nextLsn()).orElse(null);
  }

  private static void send(ObjlogTemplate template, String... values) throws Exception {
    for (String v : values) {
      template.send("orders", 0, v).get(WAIT, TimeUnit.SECONDS);
    }
  }

  static class FailingListener {
    final AtomicInteger attempts = new AtomicInteger();
    /** How many attempts on "flaky" fail before one succeeds. */
    volatile int flakyFailures = Integer.MAX_VALUE;

    @ObjlogListener(id = "failing", stream = "orders")
    void on(String value) {
      if (value.equals("bad") || (value.equals("flaky") && attempts.get() < flakyFailures)) {
        attempts.incrementAndGet();
        throw new IllegalStateException("cannot handle " + value);
      }
      received.add(value);
    }
  }

  @Test
  void theBackOffPropertiesGiveAnExponentialBackOffCappedAtItsMaxInterval() throws Exception {
    received.clear();
    runner().withBean(FailingListener.class)
        .withPropertyValues("objlog.listener.back-off.interval=1s", "objlog.listener.back-off.multiplier=2",
            "objlog.listener.back-off.max-interval=3s", "objlog.listener.back-off.max-retries=4")
        .run(context -> {
          send(context.getBean(ObjlogTemplate.class), "ok", "bad", "after");
          assertThat(take()).isEqualTo("ok");
          ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
          Await.until("the partition fails", () -> !registry.isInExpectedState("failing"));
          assertThat(waits).containsExactly(1000L, 2000L, 3000L, 3000L);
          assertThat(context.getBean(FailingListener.class).attempts).hasValue(5);
          assertThat(checkpoint("failing")).isEqualTo(1);
          assertThat(received.poll()).isNull(); // "after" is never reached: nothing is skipped
        });
  }

  @Test
  void aFailureThatARetryCuresIsProcessedAndTheListenerGoesOn() throws Exception {
    received.clear();
    runner().withBean(FailingListener.class)
        .withPropertyValues("objlog.listener.back-off.interval=5s", "objlog.listener.back-off.max-retries=3")
        .run(context -> {
          context.getBean(FailingListener.class).flakyFailures = 2;
          send(context.getBean(ObjlogTemplate.class), "flaky", "after");
          assertThat(List.of(take(), take())).containsExactly("flaky", "after");
          assertThat(waits).containsExactly(5000L, 5000L);
          Await.until("the checkpoint passes both", () -> Long.valueOf(2).equals(checkpoint("failing")));
          assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("failing")).isTrue();
        });
  }

  record Order(String id, int amount) {}

  static class OrderListener {
    final AtomicInteger invocations = new AtomicInteger();

    @ObjlogListener(id = "orders", stream = "orders")
    void on(Order order) {
      invocations.incrementAndGet();
      received.add(order.id());
    }
  }

  @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
  static class DeadLetters {
    @org.springframework.context.annotation.Bean
    ListenerErrorHandler deadLetterHandler(ObjlogTemplate template) {
      return new DefaultListenerErrorHandler(new FixedBackOff(10_000, 5), new DeadLetterRecoverer(template, "dlt"));
    }
  }

  @Test
  void aPayloadThatDoesNotConvertGoesToTheRecovererWithoutARetry() throws Exception {
    received.clear();
    runner().withBean(OrderListener.class).withUserConfiguration(DeadLetters.class).run(context -> {
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      send(template, "not json");
      template.send("orders", 0, new Order("o1", 1)).get(WAIT, TimeUnit.SECONDS);
      assertThat(take()).isEqualTo("o1");
      List<ReadRecord> dead = context.getBean(ObjlogStreams.class).reader("dlt").partition(0).read(0, 10).records();
      assertThat(dead).extracting(ReadRecord::valueAsString).containsExactly("not json");
      Map<String, String> headers = new HashMap<>();
      dead.get(0).headers().forEach(h -> headers.put(h.keyAsString(), h.valueAsString()));
      assertThat(headers).containsEntry("objlog_dlt_exception", MessageConversionException.class.getName())
          .containsEntry("objlog_dlt_attempts", "1");
      assertThat(waits).isEmpty();
      assertThat(context.getBean(OrderListener.class).invocations).hasValue(1);
    });
  }

  /** An error handler written against the methods before handle(FailedDelivery). */
  static final class LegacyHandler implements ListenerErrorHandler {
    final List<ListenerFailure> exhausted = new CopyOnWriteArrayList<>();

    @Override
    @SuppressWarnings("deprecation")
    public BackOff backOff() {
      return new FixedBackOff(7, 2);
    }

    @Override
    @SuppressWarnings("deprecation")
    public boolean handleExhausted(ListenerFailure failure) {
      exhausted.add(failure);
      return true;
    }
  }

  @Test
  void aHandlerWithOnlyTheDeprecatedMethodsStillRetriesAndRecovers() throws Exception {
    received.clear();
    LegacyHandler handler = new LegacyHandler();
    runner().withBean(FailingListener.class).withBean(ListenerErrorHandler.class, () -> handler).run(context -> {
      send(context.getBean(ObjlogTemplate.class), "bad", "after");
      assertThat(take()).isEqualTo("after");
      assertThat(waits).containsExactly(7L, 7L);
      assertThat(handler.exhausted).singleElement().satisfies(f -> {
        assertThat(f.attempts()).isEqualTo(3);
        assertThat(f.records()).extracting(ReadRecord::valueAsString).containsExactly("bad");
        assertThat(f.cause()).hasMessage("cannot handle bad");
      });
      Await.until("the checkpoint passes both", () -> Long.valueOf(2).equals(checkpoint("failing")));
    });
  }
}
