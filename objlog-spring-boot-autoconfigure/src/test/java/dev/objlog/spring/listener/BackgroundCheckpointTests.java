package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Checkpoints saved in the background ({@code objlog.listener.sync-checkpoints=false}). The
 * background saves run on an executor the test holds: a save runs only when the test runs the
 * queued tasks, so what is stored at each step is forced, not raced. A crash is a process that
 * dies with a record in hand: what survives it is the repository's content at that moment. The
 * records are written before the listener starts, so the partition has a backlog until its last
 * record (a caught-up partition settles its saves on its own thread before it waits).
 */
class BackgroundCheckpointTests {
  private static final long WAIT = 30;

  @TempDir Path root;

  /** The held executor's tasks; run by {@link #runSaves()}. */
  private final BlockingQueue<Runnable> saves = new LinkedBlockingQueue<>();
  private final Executor held = saves::add;

  static final BlockingQueue<String> received = new LinkedBlockingQueue<>();
  /** The record on which the first process "crashes": its method does not return until released. */
  static volatile @Nullable String crashOn;
  static volatile CountDownLatch release = new CountDownLatch(0);

  static class RecordListener {
    @ObjlogListener(id = "bg", stream = "orders", autoStartup = "false")
    void on(String value) throws InterruptedException {
      boolean crash = value.equals(crashOn); // decided before the test can see the record
      received.add(value);
      if (crash) {
        release.await();
      }
    }
  }

  @org.junit.jupiter.api.BeforeEach
  void noCrash() {
    crashOn = null;
    release = new CountDownLatch(0);
  }

  @org.junit.jupiter.api.AfterEach
  void releaseAnyHeldRecord() {
    release.countDown();
    crashOn = null;
  }

  private ApplicationContextRunner runner(CheckpointRepository checkpoints, @Nullable Executor executor) {
    BeanPostProcessor holdSaves = new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof ObjlogListenerContainerFactory factory) {
          factory.setCheckpointExecutor(executor);
        }
        return bean;
      }
    };
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(CheckpointRepository.class, () -> checkpoints)
        .withBean("holdSaves", BeanPostProcessor.class, () -> holdSaves)
        .withPropertyValues(
            "objlog.store.type=filesystem",
            "objlog.store.filesystem.root=" + root,
            "objlog.streams.orders.partitions=1",
            "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=1h",
            "objlog.listener.sync-checkpoints=false");
  }

  private static String take() throws InterruptedException {
    String value = received.poll(WAIT, TimeUnit.SECONDS);
    assertThat(value).as("a record within %ss", WAIT).isNotNull();
    return value;
  }

  private static List<String> take(int n) throws InterruptedException {
    List<String> got = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      got.add(take());
    }
    return got;
  }

  private static @Nullable Long stored(CheckpointRepository checkpoints) {
    return checkpoints.load(key()).map(s -> s.checkpoint().nextLsn()).orElse(null);
  }

  private static CheckpointKey key() {
    return CheckpointKey.of("bg", "orders", 0);
  }

  /** Waits, within {@link #WAIT} seconds, for what the partition's thread does. */
  private static void awaitUntil(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("%s within %ss", what, WAIT).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  private void runSaves() {
    for (Runnable r; (r = saves.poll()) != null; ) {
      r.run();
    }
  }

  /** Writes the backlog, then starts the listener. */
  private static void sendAndStart(org.springframework.context.ApplicationContext context, int from, int to)
      throws Exception {
    send(context.getBean(ObjlogTemplate.class), from, to);
    context.getBean(ObjlogListenerEndpointRegistry.class).start("bg");
  }

  private static void send(ObjlogTemplate template, int from, int to) throws Exception {
    for (int i = from; i < to; i++) {
      template.send("orders", 0, Integer.toString(i)).get(WAIT, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCrashWithARecordInHandReplaysFromTheLastSavedPositionAndSkipsNothing() throws Exception {
    received.clear();
    crashOn = "5";
    release = new CountDownLatch(1);
    InMemoryCheckpointRepository first = new InMemoryCheckpointRepository();
    runner(first, held).withBean(RecordListener.class).run(context -> {
      sendAndStart(context, 0, 10);
      assertThat(take(6)).containsExactly("0", "1", "2", "3", "4", "5");
      // Records 0-4 returned, record 5 is in hand; no background save has run yet.
      assertThat(stored(first)).isNull();
      runSaves();
      // The saves coalesced into the newest position offered: after record 4, never past the record in hand.
      assertThat(stored(first)).isEqualTo(5L);

      // The process dies here: a new one starts from what the repository holds.
      InMemoryCheckpointRepository survived = new InMemoryCheckpointRepository();
      StoredCheckpoint c = first.load(key()).orElseThrow();
      survived.save(key(), c.checkpoint(), CheckpointVersion.ABSENT);
      crashOn = null;
      runner(survived, held).withBean(RecordListener.class).run(restarted -> {
        restarted.getBean(ObjlogListenerEndpointRegistry.class).start("bg");
        assertThat(take(5)).as("from the saved position on, in order, none skipped")
            .containsExactly("5", "6", "7", "8", "9");
      });
      assertThat(stored(survived)).as("its stop saved its last position").isEqualTo(10L);
      release.countDown();
    });
  }

  @Test
  void aStopSavesTheLatestPositionThoughNoBackgroundSaveRanAndALateTaskSavesNothing() throws Exception {
    received.clear();
    crashOn = "4";
    release = new CountDownLatch(1);
    InMemoryCheckpointRepository checkpoints = new InMemoryCheckpointRepository();
    runner(checkpoints, held).withBean(RecordListener.class).run(context -> {
      sendAndStart(context, 0, 5);
      assertThat(take(5)).containsExactly("0", "1", "2", "3", "4");
      assertThat(stored(checkpoints)).as("saves wait on the held executor").isNull();
      assertThat(saves).as("a background save was asked for").isNotEmpty();
      ObjlogListenerEndpointRegistry registry = context.getBean(ObjlogListenerEndpointRegistry.class);
      Thread stopping = new Thread(() -> registry.stop("bg"));
      stopping.start();
      ObjlogListenerContainer container = registry.getListenerContainer("bg");
      awaitUntil("the stop begins", () -> !container.isRunning());
      release.countDown(); // record 4 returns while the container stops
      stopping.join(TimeUnit.SECONDS.toMillis(WAIT));
      assertThat(stopping.isAlive()).isFalse();
      assertThat(stored(checkpoints)).as("the stop stored the last position on the partition's thread").isEqualTo(5L);
      Optional<StoredCheckpoint> atStop = checkpoints.load(key());
      runSaves(); // the task queued before the stop finds nothing left to save
      assertThat(checkpoints.load(key()).map(StoredCheckpoint::version)).isEqualTo(atStop.map(StoredCheckpoint::version));
    });
  }

  @Test
  void aFailedBackgroundSaveStopsThePartitionAndStoresNothingPastTheProcessedRecords() throws Exception {
    received.clear();
    InMemoryCheckpointRepository checkpoints = new InMemoryCheckpointRepository();
    CheckpointRepository failing = new CheckpointRepository() {
      @Override
      public Optional<StoredCheckpoint> load(CheckpointKey key) {
        return checkpoints.load(key);
      }

      @Override
      public CheckpointVersion save(CheckpointKey key, dev.objlog.read.CursorCheckpoint checkpoint,
          CheckpointVersion expected) {
        throw new IllegalStateException("the store is down");
      }
    };
    runner(failing, held).withBean(RecordListener.class).run(context -> {
      sendAndStart(context, 0, 2);
      assertThat(take(2)).containsExactly("0", "1");
      runSaves(); // the background save fails, or the caught-up partition's own save does
      ObjlogListenerContainer container = context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("bg");
      awaitUntil("the partition fails", () -> !container.isInExpectedState());
      assertThat(container.getPartitionStatuses().get(0).state()).isEqualTo(ObjlogListenerContainer.PartitionState.FAILED);
      assertThat(container.getPartitionStatuses().get(0).failure()).contains("the store is down");
      assertThat(stored(checkpoints)).isNull();
    });
  }
}
