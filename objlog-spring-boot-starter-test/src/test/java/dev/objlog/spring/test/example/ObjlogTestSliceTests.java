package dev.objlog.spring.test.example;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.spring.test.ObjlogTest;
import dev.objlog.spring.test.ObjlogTester;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;

/**
 * What {@code @ObjlogTest} starts: objlog on the memory store with in-memory checkpoints, the
 * application's listeners, and nothing else of the application or of Boot. The slice's properties
 * cannot move the store off memory.
 */
@ObjlogTest(properties = {"objlog.store.type=filesystem", "objlog.checkpoint.store=bucket"})
class ObjlogTestSliceTests {

  @Autowired
  ApplicationContext context;

  @Test
  void theSliceHasObjlogOnTheMemoryStoreAndTheListeners() {
    assertThat(context.getBean(ObjectStore.class)).isInstanceOf(MemoryObjectStore.class);
    assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(InMemoryCheckpointRepository.class);
    assertThat(context.getBeansOfType(ObjlogTemplate.class)).hasSize(1);
    assertThat(context.getBean(ObjlogStreams.class).names()).containsExactly("orders");
    assertThat(context.getBeansOfType(ObjlogTester.class)).hasSize(1);
    assertThat(context.getBeansOfType(OrderListener.class)).hasSize(1);
    assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainerIds())
        .containsExactly("order-listener");
  }

  @Test
  void theSliceLeavesOutOtherComponentsAndOtherAutoConfigurations() {
    assertThat(context.getBeansOfType(OrderReport.class)).isEmpty();
    // Boot's task execution auto-configuration is on the classpath (spring-boot-autoconfigure) and
    // would define this bean in a full context.
    assertThat(context.containsBean("applicationTaskExecutor")).isFalse();
  }

  @Test
  void theSliceImportsEveryObjlogAutoConfiguration() throws IOException {
    Set<String> objlog = entries("META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports")
        .stream().filter(name -> name.startsWith("dev.objlog.")).collect(Collectors.toCollection(TreeSet::new));
    assertThat(objlog).isNotEmpty();
    assertThat(entries("META-INF/spring/dev.objlog.spring.test.AutoConfigureObjlog.imports"))
        .as("every objlog auto-configuration must be listed for @ObjlogTest")
        .containsAll(objlog);
  }

  private static List<String> entries(String resource) throws IOException {
    List<String> names = new ArrayList<>();
    Enumeration<URL> files = ObjlogTestSliceTests.class.getClassLoader().getResources(resource);
    while (files.hasMoreElements()) {
      try (InputStream in = files.nextElement().openStream()) {
        new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
            .filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(names::add);
      }
    }
    return names;
  }
}
