package dev.objlog.spring.autoconfigure.streams;

import dev.objlog.MemoryBudget;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import dev.objlog.spring.core.DefaultRecordValueConverter;
import dev.objlog.spring.core.JacksonRecordValueConverter;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.ObjlogTemplateObservationConvention;
import dev.objlog.spring.core.PartitionSet;
import dev.objlog.spring.core.RecordValueConverter;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.spring.core.StreamAutoCreator;
import dev.objlog.spring.core.StreamWriterSettings;
import dev.objlog.spring.core.WriterLeaseSettings;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of {@link ObjlogStreams} (one {@link Objlog} per {@code objlog.streams.<name>}),
 * a plain {@link Objlog} bean when exactly one stream is configured, and the {@link ObjlogTemplate}.
 * Logs record their meters in the application's {@link MeterRegistry} when there is exactly one,
 * and measure elapsed time on the application's {@link Ticker} bean when there is exactly one.
 * Every log draws from the context's one {@link MemoryBudget} bean. With {@code
 * objlog.template.observation-enabled}, the template observes its sends in the application's one
 * {@code ObservationRegistry}.
 */
@AutoConfiguration(
    after = ObjlogStoreAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
      "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration"
    })
@ConditionalOnBean(ObjectStore.class)
@EnableConfigurationProperties(ObjlogProperties.class)
public final class ObjlogStreamsAutoConfiguration {

  /**
   * The application context's one memory budget ({@code objlog.memory.budget}), passed to every
   * stream's log; an application may give its own {@link MemoryBudget} bean instead.
   */
  @Bean(WriterReservationsCheck.OWN_BUDGET_BEAN)
  @ConditionalOnMissingBean
  MemoryBudget objlogMemoryBudget(ObjlogProperties properties) {
    return properties.getMemory().toMemoryBudget();
  }

  @Bean
  @ConditionalOnMissingBean
  ObjlogStreams objlogStreams(ObjectStore store, ObjlogProperties properties,
      ObjectProvider<MeterRegistry> meterRegistry, ObjectProvider<Ticker> ticker, MemoryBudget memoryBudget) {
    ObjlogOptions.Builder options = ObjlogOptions.builder().prefix(properties.getStore().getPrefix())
        .memoryBudget(memoryBudget);
    MeterRegistry registry = meterRegistry.getIfUnique();
    if (registry != null) {
      options.meterRegistry(registry);
    }
    // Elapsed time of the logs, the listeners' lease deadlines and the template's writer leases;
    // an application (a test) may give one Ticker bean, e.g. virtual time.
    Ticker elapsed = ticker.getIfUnique();
    if (elapsed != null) {
      options.ticker(elapsed);
    }
    List<ObjlogStream> streams = new ArrayList<>();
    properties.getStreams().forEach((name, stream) ->
        streams.add(new ObjlogStream(name, properties.streamId(name), stream.getPartitions())));
    ObjlogProperties.Defaults defaults = properties.getDefaults();
    StreamAutoCreator autoCreator = !defaults.isAutoCreate() ? null : new StreamAutoCreator(store,
        properties.getStore().getPrefix(), defaults.getPartitions(), ObjlogProperties.MAX_PARTITIONS, Clock.systemUTC());
    return new ObjlogStreams(store, streams, options.build(), properties.getReader().toReaderOptions(), autoCreator);
  }

  /** Refuses at startup a configured partition count that the bucket contradicts. */
  @Bean
  ConfiguredStreamPartitionsCheck objlogConfiguredStreamPartitionsCheck(ObjectProvider<ObjlogStreams> streams,
      ObjlogProperties properties) {
    return new ConfiguredStreamPartitionsCheck(streams, properties);
  }

  /**
   * Refuses at startup a memory budget smaller than the reservations of the configured streams'
   * writers, which would leave writers that refuse every large record.
   */
  @Bean
  WriterReservationsCheck objlogWriterReservationsCheck(ObjectProvider<MemoryBudget> memoryBudget,
      ObjlogProperties properties, ListableBeanFactory beans) {
    return new WriterReservationsCheck(memoryBudget, properties, beans);
  }

  /** The one stream's log, when exactly one is configured; {@link ObjlogStreams} closes it. */
  @Bean(destroyMethod = "")
  @ConditionalOnMissingBean
  @Conditional(OnSingleStreamCondition.class)
  Objlog objlog(ObjlogStreams streams) {
    return streams.log(streams.names().iterator().next());
  }

  @Bean
  @ConditionalOnMissingBean
  StoreActivity objlogStoreActivity() {
    return new StoreActivity();
  }

  @Bean
  @ConditionalOnMissingBean
  ObjlogTemplate objlogTemplate(ObjlogStreams streams, ObjlogProperties properties,
      ObjectProvider<RecordValueConverter> converter, StoreActivity activity,
      ObjectProvider<LeaseStore> leaseStores, ObjectProvider<LeaseStoreProvider> leaseProviders,
      ObjectProvider<MeterRegistry> meterRegistry, ObjectProvider<ObservationRegistry> observationRegistry,
      ObjectProvider<ObjlogTemplateObservationConvention> observationConvention) {
    Map<String, StreamWriterSettings> settings = new LinkedHashMap<>();
    String leaseProperty = null;
    for (String name : streams.names()) {
      ObjlogProperties.Stream stream = properties.getStreams().get(name);
      if (stream == null) {
        continue; // an application's own ObjlogStreams bean with streams of its own: defaults
      }
      StreamWriterSettings s = writerSettings(stream.getWriter(), streams.stream(name).partitions());
      if (s.lease() != null) {
        leaseProperty = "objlog.streams." + name + ".writer.lease.enabled";
      }
      settings.put(name, s);
    }
    Function<ObjlogStream, StreamWriterSettings> autoCreated = null;
    if (streams.autoCreates()) {
      ObjlogProperties.Writer defaults = properties.getDefaults().getWriter();
      autoCreated = stream -> writerSettings(defaults, stream.partitions());
      if (defaults.getLease().isEnabled()) {
        leaseProperty = "objlog.defaults.writer.lease.enabled";
      }
    }
    RecordValueConverter valueConverter =
        converter.getIfAvailable(() -> new DefaultRecordValueConverter(null));
    LeaseStore leaseStore = leaseProperty == null ? null : leaseStore(leaseProperty, leaseStores, leaseProviders);
    String defaultStream = properties.getTemplate().getDefaultStream();
    defaultStream = defaultStream == null || defaultStream.isBlank() ? null : defaultStream.trim();
    if (defaultStream != null && !streams.autoCreates() && !streams.names().contains(defaultStream)) {
      throw new IllegalArgumentException("objlog.template.default-stream names \"" + defaultStream
          + "\", which is not a configured stream; configured: " + streams.names());
    }
    ObjlogTemplate template =
        new ObjlogTemplate(streams, settings, valueConverter, Clock.systemUTC(), activity, leaseStore, autoCreated);
    template.setDefaultStream(defaultStream);
    template.setObservationEnabled(properties.getTemplate().isObservationEnabled());
    observationRegistry.ifUnique(template::setObservationRegistry);
    template.setObservationConvention(observationConvention.getIfUnique());
    template.setMeterRegistry(meterRegistry.getIfUnique());
    return template;
  }

  private static StreamWriterSettings writerSettings(ObjlogProperties.Writer writer, int partitions) {
    return new StreamWriterSettings(
        PartitionSet.parse(writer.getPartitions(), partitions),
        writer.toWriterOptions(),
        writer.isReopenAfterFenceLoss(),
        writer.getLease().toSettings());
  }

  /** The lease store (the application's, or the checkpoint repository's), which every instance must share. */
  private static LeaseStore leaseStore(String leaseProperty, ObjectProvider<LeaseStore> leaseStores,
      ObjectProvider<LeaseStoreProvider> leaseProviders) {
    LeaseStore store = leaseStores.getIfUnique();
    if (store == null) {
      // Without ObjlogLeaseAutoConfiguration (auto-configurations listed one by one): as it would decide.
      LeaseStoreProvider provider = leaseProviders.getIfUnique();
      store = provider == null ? null : provider.leaseStore();
    }
    if (store == null) {
      throw new ObjlogConfigurationException(leaseProperty,
          "writer leases are kept in the listeners' lease store, but there is no single LeaseStore bean"
              + " (the checkpoint repository keeps none).",
          "Set objlog.checkpoint.store to jdbc or bucket (shared by every instance), or define a LeaseStore bean.");
    }
    return store;
  }

  /** With Jackson 3: other objects are sent as JSON through the application's JsonMapper. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(JsonMapper.class)
  static class JacksonConverterConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RecordValueConverter objlogRecordValueConverter(ObjectProvider<JsonMapper> jsonMapper) {
      return new DefaultRecordValueConverter(
          new JacksonRecordValueConverter(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build())));
    }
  }
}
