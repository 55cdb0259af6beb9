package dev.objlog.spring.autoconfigure.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.PartitionNotWritableException;
import dev.objlog.spring.core.PartitionSet;
import dev.objlog.spring.core.SendResult;
import dev.objlog.spring.listener.checkpoint.BucketCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Two applications (two contexts, each with its own store client on one directory, as two
 * processes would have) writing one stream with writer leases kept in the bucket.
 */
class WriterLeaseAutoConfigurationTests {

  @TempDir Path root;

  private ApplicationContextRunner instance() {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class))
        .withPropertyValues("objlog.store.type=filesystem", "objlog.store.filesystem.root=" + root,
            "objlog.checkpoint.store=bucket", "objlog.streams.orders.partitions=4",
            "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.streams.orders.writer.lease.enabled=true",
            "objlog.streams.orders.writer.lease.ttl=1h",
            "objlog.streams.orders.writer.lease.renew-interval=20ms");
  }

  @Test
  void twoInstancesWriteDisjointSharesAndTheSurvivorTakesAllWhenOneCloses() {
    instance().run(first -> {
      assertThat(first).hasNotFailed();
      ObjlogTemplate a = first.getBean(ObjlogTemplate.class);
      awaitTrue(() -> a.writablePartitions("orders").isAll());

      instance().run(second -> {
        assertThat(second).hasNotFailed();
        ObjlogTemplate b = second.getBean(ObjlogTemplate.class);
        awaitTrue(() -> a.writablePartitions("orders").size() == 2 && b.writablePartitions("orders").size() == 2);
        PartitionSet ofA = a.writablePartitions("orders");
        PartitionSet ofB = b.writablePartitions("orders");
        assertThat(ofA.stream().filter(ofB::contains)).as("disjoint").isEmpty();

        for (String key : List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8")) {
          assertThat(a.send("orders", key, "from-a").get(30, TimeUnit.SECONDS).partition()).isIn(ofA.stream().boxed().toList());
          assertThat(b.send("orders", key, "from-b").get(30, TimeUnit.SECONDS).partition()).isIn(ofB.stream().boxed().toList());
        }
        int ofBOnly = ofB.stream().findFirst().orElseThrow();
        assertThatThrownBy(() -> a.send("orders", ofBOnly, "x"))
            .isInstanceOf(PartitionNotWritableException.class)
            .hasMessageContaining("does not hold the writer lease of partition " + ofBOnly);

        // The partition leases are the bucket's writer-lease objects.
        assertThat(second.getBean(BucketCheckpointRepository.class).writerLease("orders", ofBOnly).current())
            .hasValueSatisfying(l -> assertThat(l.owner()).isEqualTo(b.writerLeaseOwner().orElseThrow()));
      });

      awaitTrue(() -> a.writablePartitions("orders").isAll()); // released on shutdown, not expired
      SendResult sent = a.send("orders", 0, "after").get(30, TimeUnit.SECONDS);
      assertThat(sent.partition()).isZero();
    });
  }

  @Test
  void leasesWithoutALeaseRepositoryFailStartupNamingTheProperty() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class, ObjlogStreamsAutoConfiguration.class))
        .withPropertyValues("objlog.store.type=memory", "objlog.streams.orders.writer.lease.enabled=true")
        .run(context -> assertThat(context).getFailure()
            .rootCause()
            .isInstanceOf(ObjlogConfigurationException.class)
            .hasMessageContaining("objlog.streams.orders.writer.lease.enabled"));
  }

  @Test
  void aRenewIntervalNotShorterThanTheTtlFailsStartup() {
    instance().withPropertyValues("objlog.streams.orders.writer.lease.renew-interval=2h")
        .run(context -> assertThat(context).getFailure()
            .rootCause()
            .isInstanceOf(ObjlogConfigurationException.class)
            .hasMessageContaining("objlog.streams.orders.writer.lease"));
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 30s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
