package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;

/**
 * Container events through a real application context, on a filesystem store. Waits are bounded
 * safety nets; the order of a container's own events is asserted, never their timing.
 */
class ListenerContainerEventTests {
  private static final long WAIT = 30;

  @TempDir Path root;

  private ApplicationContextRunner runner() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(Events.class)
        .withPropertyValues("objlog.store.type=filesystem", "objlog.store.filesystem.root=" + root,
            "objlog.streams.orders.partitions=2", "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h", "objlog.listener.back-off.interval=0",
            "objlog.listener.back-off.max-retries=0");
  }

  static class Events implements ApplicationListener<ObjlogListenerContainerEvent> {
    final BlockingQueue<ObjlogListenerContainerEvent> received = new LinkedBlockingQueue<>();

    @Override
    public void onApplicationEvent(ObjlogListenerContainerEvent event) {
      received.add(event);
    }

    <T extends ObjlogListenerContainerEvent> T next(Class<T> type) throws InterruptedException {
      while (true) {
        ObjlogListenerContainerEvent e = received.poll(WAIT, TimeUnit.SECONDS);
        assertThat(e).as("a %s within %ss", type.getSimpleName(), WAIT).isNotNull();
        if (type.isInstance(e)) {
          return type.cast(e);
        }
      }
    }
  }

  static class Plain {
    @ObjlogListener(id = "plain", stream = "orders", autoStartup = "false")
    void on(String value) {
      if (value.equals("poison")) {
        throw new IllegalStateException("poison");
      }
    }
  }

  @Test
  void startAssignsStopRevokesAndAFailedPartitionIsPublished() {
    runner().withBean(Plain.class).run(context -> {
      Events events = context.getBean(Events.class);
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      assertThat(events.received).isEmpty(); // not started with the context
      registry.start("plain");
      assertThat(events.next(ObjlogListenerContainerEvent.Started.class).getListenerId()).isEqualTo("plain");
      assertThat(events.next(ObjlogListenerContainerEvent.PartitionsAssigned.class).getPartitions())
          .containsExactly(0, 1);
      context.getBean(ObjlogTemplate.class).send("orders", 1, "poison").get(WAIT, TimeUnit.SECONDS);
      ObjlogListenerContainerEvent.PartitionFailed failed =
          events.next(ObjlogListenerContainerEvent.PartitionFailed.class);
      assertThat(failed.getPartition()).isEqualTo(1);
      assertThat(failed.getReason()).contains("poison");
      assertThat(failed.getContainer()).isSameAs(registry.getListenerContainer("plain"));
      registry.stop("plain");
      assertThat(events.next(ObjlogListenerContainerEvent.PartitionsRevoked.class).getPartitions())
          .containsExactly(0, 1);
      assertThat(events.next(ObjlogListenerContainerEvent.Stopped.class).getListenerId()).isEqualTo("plain");
      assertThat(events.received).isEmpty();
    });
  }

  static class Idle {
    @ObjlogListener(id = "idle", stream = "orders", partitions = "0")
    void on(String value) {
    }
  }

  @Test
  void aPartitionWithoutRecordsPublishesIdleEventsWhenAnIntervalIsSet() {
    runner().withBean(Idle.class).withPropertyValues("objlog.listener.idle-event-interval=1ms").run(context -> {
      ObjlogListenerContainerEvent.Idle idle = context.getBean(Events.class).next(ObjlogListenerContainerEvent.Idle.class);
      assertThat(idle.getListenerId()).isEqualTo("idle");
      assertThat(idle.getPartition()).isZero();
      assertThat(idle.getIdleFor()).isPositive();
    });
  }

  @Test
  void withoutAnIntervalNoIdleEventIsPublished() {
    runner().withBean(Idle.class).run(context -> {
      Events events = context.getBean(Events.class);
      events.next(ObjlogListenerContainerEvent.PartitionsAssigned.class);
      // a record round trip: the partition has been through idle polls by the time it is delivered
      context.getBean(ObjlogTemplate.class).send("orders", 0, "x").get(WAIT, TimeUnit.SECONDS);
      ObjlogListenerContainer c = context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("idle");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
      while (c.getPartitionStatuses().get(0).position() < 1) {
        assertThat(System.nanoTime()).isLessThan(deadline);
        Thread.sleep(5);
      }
      assertThat(List.copyOf(events.received)).noneMatch(ObjlogListenerContainerEvent.Idle.class::isInstance);
    });
  }

  static class Grouped {
    @ObjlogListener(id = "grouped", stream = "orders", group = "g", autoStartup = "false")
    void on(String value) {
    }
  }

  @Test
  void aGroupListenerIsAssignedThePartitionsItsLeasesWinAndStopRevokesThem() {
    runner().withBean(Grouped.class).run(context -> {
      Events events = context.getBean(Events.class);
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      registry.start("grouped");
      events.next(ObjlogListenerContainerEvent.Started.class);
      List<Integer> assigned = new java.util.ArrayList<>();
      while (assigned.size() < 2) { // one event per lease won
        assigned.addAll(events.next(ObjlogListenerContainerEvent.PartitionsAssigned.class).getPartitions());
      }
      assertThat(assigned).containsExactlyInAnyOrder(0, 1);
      registry.stop("grouped");
      assertThat(events.next(ObjlogListenerContainerEvent.PartitionsRevoked.class).getPartitions())
          .containsExactlyInAnyOrder(0, 1);
      events.next(ObjlogListenerContainerEvent.Stopped.class);
    });
  }
}
