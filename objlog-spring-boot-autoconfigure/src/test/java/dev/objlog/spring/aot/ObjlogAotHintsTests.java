package dev.objlog.spring.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.actuate.console.ConsoleAsset;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.Acknowledgment;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.JdbcCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointProperties;
import dev.objlog.spring.actuate.console.ConsoleAsset;
import java.io.IOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.ReflectionHintsPredicates;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.Resource;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.messaging.handler.annotation.Headers;

/**
 * Runs Spring's AOT processing (what {@code process-aot} does at build time) over an application
 * with listeners, the template and the JDBC checkpoint repository, and checks the hints a native
 * image of it would be built with: the ones objlog contributes through {@code
 * META-INF/spring/aot.factories}.
 */
class ObjlogAotHintsTests {
  private static final ReflectionHintsPredicates reflection = RuntimeHintsPredicates.reflection();

  private static AnnotationConfigApplicationContext context;
  private static RuntimeHints hints;

  @BeforeAll
  static void processAheadOfTime() {
    context = new AnnotationConfigApplicationContext();
    TestPropertyValues.of(
        "objlog.store.type=memory",
        "objlog.streams.orders.partitions=2",
        "objlog.checkpoint.store=jdbc",
        "spring.datasource.generate-unique-name=true").applyTo(context);
    context.register(Application.class);
    TestGenerationContext generation = new TestGenerationContext();
    new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
    generation.writeGeneratedContent();
    hints = generation.getRuntimeHints();
  }

  @AfterAll
  static void close() {
    context.close();
  }

  @Test
  void theProcessedContextHasListenersATemplateAndTheJdbcCheckpointRepository() {
    assertThat(context.getBeanNamesForType(ObjlogTemplate.class)).hasSize(1);
    assertThat(context.getBeanNamesForType(JdbcCheckpointRepository.class)).hasSize(1);
    assertThat(context.getBeanNamesForType(OrderListeners.class)).hasSize(1);
  }

  @Test
  void listenerMethodsCanBeInvokedReflectively() throws NoSuchMethodException {
    assertThat(reflection.onMethodInvocation(OrderListeners.class.getDeclaredMethod("onOrder", Order.class,
        long.class, Acknowledgment.class))).accepts(hints);
    assertThat(reflection.onMethodInvocation(OrderListeners.class.getDeclaredMethod("onShipments", List.class)))
        .accepts(hints);
    assertThat(reflection.onMethodInvocation(OrderListeners.class.getDeclaredMethod("onRecord", ReadRecord.class,
        Map.class))).as("a repeated @ObjlogListener").accepts(hints);
    assertThat(reflection.onMethodInvocation(OrderListeners.class.getDeclaredMethod("onRefund", Refund.class)))
        .as("a meta-annotated @ObjlogListener").accepts(hints);
    assertThat(reflection.onMethodInvocation(OrderListeners.class.getDeclaredMethod("notAListener", Order.class)))
        .rejects(hints);
  }

  @Test
  void payloadTypesGetBindingHintsForJackson() throws NoSuchMethodException {
    assertThat(reflection.onType(Order.class)).accepts(hints);
    assertThat(reflection.onMethodInvocation(Order.class.getDeclaredMethod("amountCents"))).accepts(hints);
    assertThat(reflection.onConstructorInvocation(Order.class.getDeclaredConstructor(String.class, long.class,
        Customer.class)))
        .accepts(hints);
    assertThat(reflection.onMethodInvocation(Customer.class.getDeclaredMethod("name")))
        .as("a type nested in a payload").accepts(hints);
    assertThat(reflection.onMethodInvocation(Shipment.class.getDeclaredMethod("orderId")))
        .as("the element type of a batch listener's List").accepts(hints);
    assertThat(reflection.onMethodInvocation(Refund.class.getDeclaredMethod("orderId"))).accepts(hints);
  }

  @Test
  void argumentsTheContainerSuppliesGetNoBindingHints() {
    assertThat(reflection.onType(Acknowledgment.class)).rejects(hints);
    assertThat(reflection.onType(ReadRecord.class)).rejects(hints);
  }

  @Test
  void theCheckpointSchemaScriptsAreResources() throws IOException {
    Resource[] scripts = new PathMatchingResourcePatternResolver()
        .getResources("classpath*:" + ObjlogRuntimeHints.CHECKPOINT_SCHEMAS);
    assertThat(scripts).extracting(Resource::getFilename)
        .containsExactlyInAnyOrder("schema-h2.sql", "schema-mysql.sql", "schema-postgresql.sql");
    for (Resource script : scripts) {
      assertThat(RuntimeHintsPredicates.resource()
          .forResource("dev/objlog/spring/listener/checkpoint/" + script.getFilename())).accepts(hints);
    }
  }

  @Test
  void theConsolesStaticFilesAreResources() throws IOException {
    Resource[] assets = new PathMatchingResourcePatternResolver()
        .getResources("classpath*:" + ObjlogRuntimeHints.CONSOLE_ASSETS);
    assertThat(assets).extracting(Resource::getFilename)
        .contains("index.html", "console.js", "console.css");
    for (Resource asset : assets) {
      assertThat(RuntimeHintsPredicates.resource()
          .forResource(ConsoleAsset.FOLDER + asset.getFilename())).accepts(hints);
    }
  }

  @Test
  void theGcsUploadChannelsGetObjectIsReflectivelyInvocable() throws Exception {
    // GcsUpload calls getClass().getMethod("getObject") on the channel Storage.writer(..) returns;
    // these names follow the google-cloud-storage version in the build.
    Class<?> base = Class.forName(ObjlogRuntimeHints.GCS_WRITE_CHANNEL);
    assertThat(base.getDeclaredMethod("getObject").getDeclaringClass()).isEqualTo(base);
    for (String channel : ObjlogRuntimeHints.GCS_WRITE_CHANNEL_CLASSES) {
      assertThat(base).isAssignableFrom(Class.forName(channel));
      assertThat(reflection.onType(Class.forName(channel))).accepts(hints);
    }
    assertThat(reflection.onMethodInvocation(ObjlogRuntimeHints.GCS_WRITE_CHANNEL, "getObject")).accepts(hints);
  }

  /**
   * Not objlog's hints but Spring Boot's: docs/SPRING.md says the starter's
   * {@code @ConfigurationProperties} classes (nested ones included) need nothing from us.
   */
  @Test
  void configurationPropertiesAreBoundThroughSpringBootsOwnHints() throws NoSuchMethodException {
    assertThat(reflection.onMethodInvocation(ObjlogProperties.Stream.class.getDeclaredMethod("setPartitions",
        int.class))).accepts(hints);
    assertThat(reflection.onMethodInvocation(ObjlogCheckpointProperties.Jdbc.class.getDeclaredMethod(
        "setTablePrefix", String.class))).accepts(hints);
  }

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration({DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
      ObjlogStoreAutoConfiguration.class, ObjlogStreamsAutoConfiguration.class,
      ObjlogCheckpointAutoConfiguration.class, ObjlogListenerAutoConfiguration.class})
  @Import(OrderListeners.class)
  static class Application {}

  record Customer(String name) {}

  record Order(String id, long amountCents, Customer customer) {}

  record Shipment(String orderId) {}

  record Refund(String orderId) {}

  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @ObjlogListener(id = "refunds", stream = "orders")
  @interface RefundListener {}

  static class OrderListeners {

    @ObjlogListener(id = "orders", stream = "orders", checkpointMode = "MANUAL")
    void onOrder(Order order, @Header(ObjlogHeaders.LSN) long lsn, Acknowledgment acknowledgment) {}

    @ObjlogListener(id = "shipments", stream = "orders", batch = "true")
    void onShipments(List<Shipment> shipments) {}

    @ObjlogListener(id = "audit", stream = "orders")
    @ObjlogListener(id = "archive", stream = "orders")
    void onRecord(ReadRecord record, @Headers Map<String, Object> headers) {}

    @RefundListener
    void onRefund(Refund refund) {}

    void notAListener(Order order) {}
  }
}
