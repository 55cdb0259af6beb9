package dev.objlog.spring.actuate.console;

import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerContainer;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application the console tests look at: a servlet app on a random port, the filesystem store,
 * three streams ({@code orders} with 2 partitions, {@code audit} and {@code metrics} with 1 each)
 * and a listener of {@code audit} whose deliveries a test can hold back. Each test writes to a
 * partition of its own; {@code orders/0} stays unwritten.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class ConsoleApp {
  static final String LISTENER = "audit-reader";

  @Bean
  GatedListener gatedListener() {
    return new GatedListener();
  }

  /** Receives {@code audit}'s records; while its gate is closed, the first delivery waits. */
  static class GatedListener {
    private volatile CountDownLatch gate = new CountDownLatch(0);

    void close() {
      gate = new CountDownLatch(1);
    }

    void open() {
      gate.countDown();
    }

    @ObjlogListener(id = LISTENER, stream = "audit")
    void onRecord(String value) throws InterruptedException {
      // Bounded, so that a test that fails before opening the gate cannot hang the build.
      gate.await(5, TimeUnit.MINUTES);
    }
  }

  static ConfigurableApplicationContext start(Path root, String... extra) {
    List<String> properties = new ArrayList<>(List.of(
        "server.port=0",
        "objlog.store.type=filesystem",
        "objlog.store.filesystem.root=" + root,
        "objlog.streams.orders.partitions=2",
        "objlog.streams.audit.partitions=1",
        "objlog.streams.metrics.partitions=1",
        "management.endpoints.web.exposure.include=objlog,health",
        "objlog.console.refresh=1s"));
    properties.addAll(List.of(extra));
    return new SpringApplicationBuilder(ConsoleApp.class).web(WebApplicationType.SERVLET)
        .properties(properties.toArray(String[]::new)).run();
  }

  static String consoleUrl(ConfigurableApplicationContext app) {
    return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + "/actuator/objlog/console";
  }

  static void send(ConfigurableApplicationContext app, String stream, int partition, int records) throws Exception {
    ObjlogTemplate template = app.getBean(ObjlogTemplate.class);
    for (int i = 0; i < records; i++) {
      template.send(stream, partition, "record-" + i);
    }
    template.flush();
  }

  static ObjlogListenerContainer listener(ConfigurableApplicationContext app) {
    return Objects.requireNonNull(app.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer(LISTENER));
  }
}
