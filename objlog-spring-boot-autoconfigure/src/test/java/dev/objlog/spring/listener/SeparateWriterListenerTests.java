package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A writer outside the application (its own store client and log on the same directory, as
 * another process would have) appends; the listener sees the records through its poller.
 */
class SeparateWriterListenerTests {

  @TempDir Path root;

  static class Listener {
    final BlockingQueue<String> received = new LinkedBlockingQueue<>();

    @ObjlogListener(id = "polling", stream = "orders")
    void on(String value) {
      received.add(value);
    }
  }

  @Test
  void recordsOfAnotherWriterArriveByPolling() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(Listener.class)
        .withPropertyValues("objlog.store.type=filesystem", "objlog.store.filesystem.root=" + root,
            "objlog.streams.orders.partitions=1", "objlog.listener.poll-interval=20ms")
        .run(context -> {
          assertThat(context).hasNotFailed();
          try (FilesystemObjectStore store = FilesystemObjectStore.open(root);
              Objlog other = Objlog.open(store, "orders", ObjlogOptions.defaults());
              PartitionWriter writer = other.openWriter(0)) {
            writer.append(LogRecord.of(System.currentTimeMillis(), "from-elsewhere".getBytes(StandardCharsets.UTF_8)));
            writer.flush();
            assertThat(context.getBean(Listener.class).received.poll(30, TimeUnit.SECONDS)).isEqualTo("from-elsewhere");
          }
        });
  }
}
