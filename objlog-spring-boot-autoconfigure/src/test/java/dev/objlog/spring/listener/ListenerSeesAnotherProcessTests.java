package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.reliability.ChildJvm;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.handler.annotation.Header;

/**
 * A listener sees records that another JVM commits: there is no local wake-up across processes,
 * so they arrive through the container's poll of the partition head. Waits are bounded; nothing
 * asserts on timing.
 */
class ListenerSeesAnotherProcessTests {
  private static final long WAIT_SECONDS = 60;
  private static final int RECORDS = 50;

  @TempDir Path root;

  static final BlockingQueue<String> received = new LinkedBlockingQueue<>();

  static class Listener {
    @ObjlogListener(id = "other-process", stream = "orders")
    void on(String value, @Header(ObjlogHeaders.LSN) long lsn) {
      received.add(lsn + "=" + value);
    }
  }

  @Test
  void recordsCommittedByAnotherProcessArriveThroughPollingInOrder() throws Exception {
    received.clear();
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(CheckpointRepository.class, InMemoryCheckpointRepository::new)
        .withBean(Listener.class)
        .withPropertyValues(
            "objlog.store.type=filesystem",
            "objlog.store.filesystem.root=" + root,
            "objlog.store.prefix=shared",
            "objlog.streams.orders.stream-id=team/orders",
            "objlog.streams.orders.partitions=1",
            "objlog.listener.poll-interval=100ms")
        .run(context -> {
          assertThat(context).hasNotFailed();
          try (ChildJvm writer = new ChildJvm(OtherProcessWriter.class,
              root.toString(), "shared", "team/orders", Integer.toString(RECORDS))) {
            assertThat(writer.await(WAIT_SECONDS)).as("writer process exit; output %s", writer.tail()).isZero();
            assertThat(writer.lines).as("writer process output").contains("DONE .");
          }
          List<String> got = new ArrayList<>();
          for (int i = 0; i < RECORDS; i++) {
            String value = received.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(value).as("record %d within %ss; got %s", i, WAIT_SECONDS, got).isNotNull();
            got.add(value);
          }
          List<String> expected = new ArrayList<>();
          for (int i = 0; i < RECORDS; i++) {
            expected.add(i + "=p" + i);
          }
          assertThat(got).containsExactlyElementsOf(expected);
        });
  }
}
