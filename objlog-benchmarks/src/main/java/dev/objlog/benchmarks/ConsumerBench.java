package dev.objlog.benchmarks;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * The consumer-side scenarios' shared set-up (issue 24): one real Spring Boot application context
 * (no web server) holding objlog's auto-configuration (store, streams, checkpoints, listeners) and
 * spring-kafka's {@code @EnableKafka} with a listener container factory on the embedded KRaft
 * broker, so {@code @ObjlogListener} and {@code @KafkaListener} methods run side by side in one JVM.
 *
 * <p>Listener beans are registered per round, each with its own id (and, for Kafka, its own
 * consumer group), {@code autoStartup = false}; a round starts one, waits for its {@link Sink} to
 * have seen the expected records, and stops it. Public (and the bean classes public) because
 * the annotations' SpEL ({@code #{__listener.id}}) reads them reflectively. Not thread-safe to
 * set up; a {@link Sink} may be fed by one listener thread while another thread waits on it.
 */
public final class ConsumerBench {
  private ConsumerBench() {}

  /** The configuration class of the benchmark context. */
  @Configuration(proxyBeanMethods = false)
  @EnableKafka
  @ImportAutoConfiguration({ObjlogStoreAutoConfiguration.class, ObjlogStreamsAutoConfiguration.class,
      ObjlogCheckpointAutoConfiguration.class, ObjlogListenerAutoConfiguration.class})
  public static class Config {
    @Bean
    ConsumerFactory<byte[], byte[]> benchKafkaConsumerFactory(Environment env) {
      Map<String, Object> props = new LinkedHashMap<>();
      props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, env.getRequiredProperty("bench.kafka.bootstrap"));
      props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
      // a new group reads the topic from its start, as an objlog listener without checkpoint does
      props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      return new DefaultKafkaConsumerFactory<>(props);
    }

    @Bean
    ConcurrentKafkaListenerContainerFactory<byte[], byte[]> kafkaListenerContainerFactory(
        ConsumerFactory<byte[], byte[]> consumers) {
      ConcurrentKafkaListenerContainerFactory<byte[], byte[]> f = new ConcurrentKafkaListenerContainerFactory<>();
      f.setConsumerFactory(consumers);
      return f; // AckMode BATCH: offsets committed after each poll's records, spring-kafka's default
    }

    /**
     * The consumer tuned towards objlog's reads: polls of up to 1 024 records (objlog's batch) and
     * fetches of up to 8 MiB per partition (1 MiB by default), so a poll is never short of bytes.
     */
    @Bean
    ConcurrentKafkaListenerContainerFactory<byte[], byte[]> tunedKafkaListenerContainerFactory(Environment env) {
      Map<String, Object> props = new LinkedHashMap<>(benchKafkaConsumerFactory(env).getConfigurationProperties());
      props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1024);
      props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 << 20);
      props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 << 20);
      ConcurrentKafkaListenerContainerFactory<byte[], byte[]> f = new ConcurrentKafkaListenerContainerFactory<>();
      f.setConsumerFactory(new DefaultKafkaConsumerFactory<>(props));
      return f;
    }
  }

  /**
   * Starts the context. {@code properties} are Spring properties (objlog.*, bench.kafka.bootstrap);
   * {@code beans} registers the listener beans before the context refreshes.
   */
  static ConfigurableApplicationContext start(Map<String, Object> properties, Consumer<GenericApplicationContext> beans) {
    Map<String, Object> props = new LinkedHashMap<>(properties);
    props.put("spring.main.register-shutdown-hook", "false");
    return new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF)
        .logStartupInfo(false).properties(props)
        .initializers(ctx -> beans.accept((GenericApplicationContext) ctx)).run();
  }

  /** Registers a listener bean under its id, typed as its own class so both annotation processors see it. */
  @SuppressWarnings("unchecked")
  static <T extends Bean0> void register(GenericApplicationContext g, T bean) {
    g.registerBean(bean.getId(), (Class<T>) bean.getClass(), () -> bean);
  }

  /** Kafka producer with acks=all and batching like objlog's writer (1 MiB, 10 ms linger, zstd), as P8's tuned side. */
  static KafkaTemplate<byte[], byte[]> tunedKafkaTemplate(String bootstrap, List<AutoCloseable> closing) {
    Map<String, Object> tuned = new LinkedHashMap<>();
    tuned.put(ProducerConfig.BATCH_SIZE_CONFIG, 1 << 20);
    tuned.put(ProducerConfig.LINGER_MS_CONFIG, 10);
    tuned.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "zstd");
    return kafkaTemplate(bootstrap, closing, tuned);
  }

  /** Kafka producer with acks=all, byte-array keys and values, and {@code extra} over the producer's defaults. */
  static KafkaTemplate<byte[], byte[]> kafkaTemplate(String bootstrap, List<AutoCloseable> closing,
      Map<String, Object> extra) {
    Map<String, Object> props = new LinkedHashMap<>();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    props.putAll(extra);
    DefaultKafkaProducerFactory<byte[], byte[]> factory = new DefaultKafkaProducerFactory<>(props);
    closing.add(factory::destroy);
    return new KafkaTemplate<>(factory);
  }

  static void startObjlog(ConfigurableApplicationContext ctx, String id) {
    ctx.getBean(ObjlogListenerEndpointRegistry.class).start(id);
  }

  static void stopObjlog(ConfigurableApplicationContext ctx, String id) {
    ctx.getBean(ObjlogListenerEndpointRegistry.class).stop(id);
  }

  static MessageListenerContainer kafkaContainer(ConfigurableApplicationContext ctx, String id) {
    MessageListenerContainer c = ctx.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer(id);
    if (c == null) {
      throw new IllegalStateException("no Kafka listener " + id);
    }
    return c;
  }

  /**
   * What one listener received: the count, the first and last delivery times, and (when {@link
   * #timeByIndex} is set) each record's arrival by the index in its first 8 bytes.
   */
  public static final class Sink {
    private final AtomicLong count = new AtomicLong();
    private volatile long first;
    private volatile long last;
    private volatile long expected = Long.MAX_VALUE;
    private volatile CountDownLatch done = new CountDownLatch(1);
    volatile long[] timeByIndex;

    /** Resets the sink to expect {@code n} records. */
    void arm(long n) {
      count.set(0);
      first = 0;
      last = 0;
      done = new CountDownLatch(1);
      expected = n;
    }

    void await(long minutes) throws InterruptedException {
      if (!done.await(minutes, TimeUnit.MINUTES)) {
        throw new IllegalStateException("listener saw " + count.get() + " of " + expected + " records in " + minutes + " min");
      }
    }

    long firstNanos() {
      return first;
    }

    long lastNanos() {
      return last;
    }

    void got(byte[] value) {
      long now = System.nanoTime();
      long[] times = timeByIndex;
      if (times != null) {
        times[(int) ByteBuffer.wrap(value).getLong(0)] = now;
      }
      arrived(now, 1);
    }

    void got(List<byte[]> values) {
      long now = System.nanoTime();
      long[] times = timeByIndex;
      if (times != null) {
        for (byte[] v : values) {
          times[(int) ByteBuffer.wrap(v).getLong(0)] = now;
        }
      }
      arrived(now, values.size());
    }

    private void arrived(long now, int n) {
      if (first == 0) {
        first = now;
      }
      last = now;
      if (count.addAndGet(n) >= expected) {
        done.countDown();
      }
    }
  }

  /** Base of the listener beans: the id (also the Kafka group) and the stream or topic, read by SpEL. */
  public abstract static class Bean0 {
    private final String id;
    private final String source;
    private final boolean autoStartup;
    private String factory = "kafkaListenerContainerFactory";
    final Sink sink = new Sink();

    Bean0(String id, String source, boolean autoStartup) {
      this.id = id;
      this.source = source;
      this.autoStartup = autoStartup;
    }

    /** Kafka listeners: consume through the tuned container factory instead of the default one. */
    <T extends Bean0> T tuned() {
      factory = "tunedKafkaListenerContainerFactory";
      @SuppressWarnings("unchecked")
      T self = (T) this;
      return self;
    }

    public String getFactory() {
      return factory;
    }

    public String getId() {
      return id;
    }

    public String getSource() {
      return source;
    }

    public String getAutoStartup() {
      return Boolean.toString(autoStartup);
    }
  }

  /** {@code @ObjlogListener}, one record per invocation. */
  public static final class ObjlogRecord extends Bean0 {
    ObjlogRecord(String id, String stream, boolean autoStartup) {
      super(id, stream, autoStartup);
    }

    @ObjlogListener(id = "#{__listener.id}", stream = "#{__listener.source}", autoStartup = "#{__listener.autoStartup}")
    public void on(byte[] value) {
      sink.got(value);
    }
  }

  /** {@code @ObjlogListener(batch = "true")}: each read batch as a list. */
  public static final class ObjlogBatch extends Bean0 {
    ObjlogBatch(String id, String stream, boolean autoStartup) {
      super(id, stream, autoStartup);
    }

    @ObjlogListener(id = "#{__listener.id}", stream = "#{__listener.source}", autoStartup = "#{__listener.autoStartup}",
        batch = "true")
    public void on(List<byte[]> values) {
      sink.got(values);
    }
  }

  /** {@code @KafkaListener}, one record per invocation; its id is also its consumer group. */
  public static final class KafkaRecord extends Bean0 {
    KafkaRecord(String id, String topic, boolean autoStartup) {
      super(id, topic, autoStartup);
    }

    @KafkaListener(id = "#{__listener.id}", topics = "#{__listener.source}", autoStartup = "#{__listener.autoStartup}",
        containerFactory = "#{__listener.factory}", batch = "false")
    public void on(byte[] value) {
      sink.got(value);
    }
  }

  /** {@code @KafkaListener(batch = "true")}: each poll's records as a list. */
  public static final class KafkaBatch extends Bean0 {
    KafkaBatch(String id, String topic, boolean autoStartup) {
      super(id, topic, autoStartup);
    }

    @KafkaListener(id = "#{__listener.id}", topics = "#{__listener.source}", autoStartup = "#{__listener.autoStartup}",
        containerFactory = "#{__listener.factory}", batch = "true")
    public void on(List<byte[]> values) {
      sink.got(values);
    }
  }
}
