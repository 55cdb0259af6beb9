package dev.objlog.cli;

import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ReadOnlyObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The store and streams of one command, configured exactly like the starter: the starter's own
 * store auto-configuration binds {@code objlog.*} from (highest first) {@code --set} flags, the
 * environment ({@code OBJLOG_STORE_TYPE}, ...), the {@code --config} file and {@code
 * application.properties} in the working directory, and builds and checks the store with the
 * starter's validation. Only the store is configured: no writers, listeners or schedules start.
 * The conditional-write self-test (which writes scratch objects) is off unless a flag turns it
 * on, and unless writes are allowed the store is wrapped read-only, so a command cannot change
 * the bucket by mistake.
 *
 * <p>Thread-safety: one command's session, used on one thread.
 */
final class CliSession implements AutoCloseable {
  private final ConfigurableApplicationContext context;
  private final ObjlogProperties properties;
  private final ObjectStore store;
  private final ObjlogStreams streams;

  /** The starter's store configuration and nothing else. */
  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(ObjlogStoreAutoConfiguration.class)
  static class StoreOnly {}

  private CliSession(ConfigurableApplicationContext context, boolean allowWrites) {
    this.context = context;
    this.properties = context.getBean(ObjlogProperties.class);
    ObjectStore configured = context.getBean(ObjectStore.class);
    this.store = allowWrites ? configured : ReadOnlyObjectStore.of(configured);
    List<ObjlogStream> configuredStreams = new ArrayList<>();
    properties.getStreams().forEach((name, stream) ->
        configuredStreams.add(new ObjlogStream(name, properties.streamId(name), stream.getPartitions())));
    this.streams = new ObjlogStreams(store, configuredStreams,
        ObjlogOptions.builder().prefix(properties.getStore().getPrefix()).build(),
        properties.getReader().toReaderOptions());
  }

  /**
   * @throws CliException for a configuration the starter refuses, with its message
   */
  static CliSession open(@Nullable Path config, Map<String, String> settings, boolean allowWrites, boolean selfTest) {
    SpringApplication app = new SpringApplication(StoreOnly.class);
    app.setWebApplicationType(WebApplicationType.NONE);
    app.setBannerMode(Banner.Mode.OFF);
    app.setLogStartupInfo(false);
    app.setRegisterShutdownHook(false);
    app.setDefaultProperties(Map.of("objlog.store.verify-conditional-writes", String.valueOf(selfTest)));
    List<String> args = new ArrayList<>();
    if (config != null) {
      args.add("--spring.config.import=file:" + config.toAbsolutePath());
    }
    Map<String, String> ordered = new LinkedHashMap<>(settings);
    if (selfTest) {
      ordered.put("objlog.store.verify-conditional-writes", "true");
    }
    ordered.forEach((k, v) -> args.add("--" + k + "=" + v));
    try {
      return new CliSession(app.run(args.toArray(String[]::new)), allowWrites);
    } catch (RuntimeException e) {
      for (Throwable t = e; t != null; t = t.getCause()) {
        if (t instanceof ObjlogConfigurationException config1) {
          throw new CliException(config1.getMessage());
        }
      }
      throw new CliException("cannot open the store: " + e.getMessage());
    }
  }

  ObjectStore store() {
    return store;
  }

  ObjlogStreams streams() {
    return streams;
  }

  /** The configured stream named {@code name}. */
  ObjlogStream stream(String name) {
    return streams.find(name).orElseThrow(() -> new CliException("no stream named '" + name
        + "' is configured; configure objlog.streams." + name + ".stream-id and .partitions (configured: "
        + streams.names() + ")"));
  }

  /** The log of a configured stream, checking the partition exists. */
  Objlog log(String name, int partition) {
    ObjlogStream stream = stream(name);
    if (partition < 0 || partition >= stream.partitions()) {
      throw new CliException("stream '" + name + "' has partitions 0.." + (stream.partitions() - 1)
          + "; there is no partition " + partition);
    }
    return streams.log(name);
  }

  @Override
  public void close() {
    streams.close();
    context.close();
  }
}
