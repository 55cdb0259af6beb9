package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.autoconfigure.actuate.ObjlogEndpointAutoConfiguration;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.MutableClock;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.StoredCheckpoint;
import dev.objlog.store.Ticker;
import dev.objlog.testing.MutableTicker;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.messaging.handler.annotation.Header;

/**
 * Two application contexts (two instances of one application) share a listener group on one
 * filesystem store and one checkpoint store. Lease time is virtual and moves only when the test
 * says so, while the members tick every few milliseconds of real time: a {@link MutableClock} is
 * the wall clock that stored leases expire by, a {@link MutableTicker} the elapsed time that each
 * member's local lease deadlines are measured on. Subclasses say where checkpoints and leases live. Waits are bounded; nothing asserts on
 * timing.
 */
abstract class ListenerGroupContract {
  private static final long WAIT = 30;
  private static final int PARTITIONS = 4;
  private static final Duration TTL = Duration.ofSeconds(30);
  private static final Duration MARGIN = Duration.ofSeconds(10);

  /** Every invocation of every instance: "instance:partition@lsn". */
  static final Collection<String> events = new ConcurrentLinkedQueue<>();

  @TempDir Path root;

  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  // Starts just below the overflow, which the tests cross: deadlines compare by subtraction.
  final MutableTicker ticker = new MutableTicker(Long.MAX_VALUE - Duration.ofSeconds(5).toNanos());

  /** Time passes: the wall clock and elapsed time move together. */
  void elapse(Duration d) {
    ticker.advance(d);
    clock.advance(d);
  }

  /**
   * The repository one instance uses; instances of one test must share what it stores. Called once
   * per instance.
   */
  protected abstract CheckpointRepository openRepository(Path storeRoot, Clock clock);

  /** Further properties of every instance (a subclass runs the same behaviours with other settings). */
  protected String[] moreProperties() {
    return new String[0];
  }

  @BeforeEach
  void clearEvents() {
    events.clear();
  }

  static class GroupListener {
    @Value("${objlog.listener.instance-id}")
    String instance;

    @ObjlogListener(id = "grouped", stream = "orders", group = "workers")
    void on(String value, @Header(ObjlogHeaders.PARTITION) int partition, @Header(ObjlogHeaders.LSN) long lsn) {
      events.add(instance + ":" + partition + "@" + lsn);
    }
  }

  private ApplicationContextRunner instance(String id, CutOff cut) {
    CheckpointRepository repository = new CuttableRepository(openRepository(root, clock), cut);
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class, ObjlogEndpointAutoConfiguration.class))
        .withBean(CheckpointRepository.class, () -> repository)
        .withBean(Ticker.class, () -> ticker)
        .withInitializer(context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
          @Override
          public Object postProcessAfterInitialization(Object bean, String name) {
            if (bean instanceof ObjlogListenerContainerFactory factory) {
              factory.setClock(clock); // checkpoint times on the clock the repository keeps time by
            }
            return bean;
          }
        }))
        .withBean(GroupListener.class)
        .withPropertyValues(
            "objlog.store.type=filesystem",
            "objlog.store.filesystem.root=" + root,
            "objlog.streams.orders.partitions=" + PARTITIONS,
            "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.listener.poll-interval=20ms",
            "objlog.listener.instance-id=" + id,
            "objlog.listener.group.lease-ttl=" + TTL.toSeconds() + "s",
            "objlog.listener.group.safety-margin=" + MARGIN.toSeconds() + "s",
            "objlog.listener.group.renew-interval=20ms",
            "management.endpoints.web.exposure.include=objlog")
        .withPropertyValues(moreProperties());
  }

  /** Whether an instance's lease calls reach the store (false: as if it lost its connection). */
  static final class CutOff {
    volatile boolean cut;
  }

  private static ObjlogListenerContainer container(ApplicationContext context) {
    return context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("grouped");
  }

  /** The partitions an instance holds and runs. */
  private static Set<Integer> running(ApplicationContext context) {
    ObjlogListenerContainer c = container(context);
    Set<Integer> held = c.getPartitionLeases().stream().filter(ObjlogListenerContainer.PartitionLease::heldByThisInstance)
        .map(ObjlogListenerContainer.PartitionLease::partition).collect(Collectors.toCollection(TreeSet::new));
    Set<Integer> consuming = c.getPartitionStatuses().stream()
        .filter(s -> s.state() == ObjlogListenerContainer.PartitionState.RUNNING)
        .map(ObjlogListenerContainer.PartitionStatus::partition).collect(Collectors.toCollection(TreeSet::new));
    return held.equals(consuming) && c.getPartitionStatuses().size() == consuming.size() ? held : Set.of(-1);
  }

  private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("%s within %ss", what, WAIT).isLessThan(deadline);
      Thread.sleep(5);
    }
  }

  /**
   * Waits until a and b run two partitions each, sends a record to every partition and waits
   * until b sees each checkpointed; returns a's partitions (index 0) and b's (index 1).
   */
  private static List<Set<Integer>> splitAndCheckpointOneRecordEach(ApplicationContext a, ApplicationContext b)
      throws Exception {
    awaitTrue("a and b run two partitions each",
        () -> running(a).size() == 2 && running(b).size() == 2);
    Set<Integer> atA = running(a);
    Set<Integer> atB = running(b);
    sendToEveryPartition(b, "before");
    awaitTrue("the records are processed and checkpointed", () -> events.size() == PARTITIONS
        && atA.stream().allMatch(p -> checkpoint(b, p) == 1) && atB.stream().allMatch(p -> checkpoint(b, p) == 1));
    return List.of(atA, atB);
  }

  private static void bTakesEveryPartitionAndProcessesNewRecords(ApplicationContext b) throws Exception {
    awaitTrue("b takes a's partitions", () -> running(b).equals(Set.of(0, 1, 2, 3)));
    sendToEveryPartition(b, "after");
    awaitTrue("the new records are processed", () -> events.size() == 2 * PARTITIONS);
  }

  /** The records "before" and "after" (two per partition): none lost, none twice, the new ones by b. */
  private static void assertEachRecordProcessedOnceAndTheNewOnesByB() {
    Map<String, List<String>> byRecord = byRecord();
    assertThat(byRecord.keySet()).as("no gap").isEqualTo(records(2));
    assertThat(byRecord.values()).as("no record processed twice").allSatisfy(by -> assertThat(by).hasSize(1));
    for (int p = 0; p < PARTITIONS; p++) {
      assertThat(byRecord.get(p + "@1")).containsExactly("b");
    }
  }

  private static void sendToEveryPartition(ApplicationContext context, String value) throws Exception {
    ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
    for (int p = 0; p < PARTITIONS; p++) {
      template.send("orders", p, value).get(WAIT, TimeUnit.SECONDS);
    }
  }

  /** The events per record ("partition@lsn" → instances that processed it). */
  private static Map<String, List<String>> byRecord() {
    return events.stream().collect(Collectors.groupingBy(e -> e.substring(e.indexOf(':') + 1),
        Collectors.mapping(e -> e.substring(0, e.indexOf(':')), Collectors.toList())));
  }

  private static Set<String> records(int lsnsPerPartition) {
    Set<String> all = new TreeSet<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (int lsn = 0; lsn < lsnsPerPartition; lsn++) {
        all.add(p + "@" + lsn);
      }
    }
    return all;
  }

  @Test
  void membersSplitThePartitionsAndTheSurvivorContinuesFromTheCheckpoints() throws Exception {
    instance("a", new CutOff()).run(a -> {
      assertThat(a).hasNotFailed();
      awaitTrue("a alone runs every partition", () -> running(a).equals(Set.of(0, 1, 2, 3)));
      sendToEveryPartition(a, "first");
      awaitTrue("a processes the first records", () -> events.size() == PARTITIONS);

      instance("b", new CutOff()).run(b -> {
        assertThat(b).hasNotFailed();
        awaitTrue("a and b run two partitions each",
            () -> running(a).size() == 2 && running(b).size() == 2);
        Set<Integer> atA = running(a);
        Set<Integer> atB = running(b);
        assertThat(atA).doesNotContainAnyElementsOf(atB);
        assertThat(container(b).getGroupMembers()).isEqualTo(2);
        assertThat(leaseOwners(b)).as("the endpoint shows every lease's owner")
            .containsOnlyKeys(0, 1, 2, 3).allSatisfy((p, owner) -> assertThat(owner).isEqualTo(atB.contains(p)
                ? "b (this instance)" : "a"));

        sendToEveryPartition(a, "second");
        awaitTrue("the second records are processed", () -> events.size() == 2 * PARTITIONS);
        for (int p = 0; p < PARTITIONS; p++) {
          String owner = atA.contains(p) ? "a" : "b";
          assertThat(byRecord().get(p + "@1")).as("partition %s", p).containsExactly(owner);
        }

        a.close(); // a graceful stop saves the checkpoints and releases the leases
        awaitTrue("b takes over every partition", () -> running(b).equals(Set.of(0, 1, 2, 3)));
        sendToEveryPartition(b, "third");
        awaitTrue("the third records are processed", () -> events.size() == 3 * PARTITIONS);
      });
    });
    Map<String, List<String>> byRecord = byRecord();
    assertThat(byRecord.keySet()).as("no gap").isEqualTo(records(3));
    assertThat(byRecord.values()).as("no record processed twice").allSatisfy(by -> assertThat(by).hasSize(1));
    assertThat(byRecord).allSatisfy((record, by) -> {
      if (record.endsWith("@2")) {
        assertThat(by).containsExactly("b");
      }
    });
  }

  @Test
  void aMemberThatCannotRenewStopsItsPartitionsBeforeAnotherMemberTakesThem() throws Exception {
    CutOff cutA = new CutOff();
    instance("a", cutA).run(a -> instance("b", new CutOff()).run(b -> {
      List<Set<Integer>> split = splitAndCheckpointOneRecordEach(a, b);
      Set<Integer> atA = split.get(0);
      Set<Integer> atB = split.get(1);

      cutA.cut = true;
      // Time moves in two steps so that b, which can renew, renews between them and keeps its deadline.
      Duration half = TTL.minus(MARGIN).dividedBy(2);
      elapse(half);
      awaitRenewal(b);
      assertThat(running(a)).as("before its deadline a still runs").isEqualTo(atA);
      elapse(half); // a's last renewal is now ttl - margin old: its deadline
      awaitTrue("a stops its partitions at the deadline",
          () -> container(a).getPartitionStatuses().stream()
              .noneMatch(s -> s.state() == ObjlogListenerContainer.PartitionState.RUNNING));
      awaitRenewal(b);
      assertThat(running(b)).as("a's leases are still valid: b must not take them").isEqualTo(atB);

      elapse(MARGIN.plusMillis(1)); // a's leases expire
      bTakesEveryPartitionAndProcessesNewRecords(b);
      cutA.cut = false; // let a release what it can on close
    }));
    assertEachRecordProcessedOnceAndTheNewOnesByB();
  }

  @Test
  void aMemberThatCannotRenewStopsAtItsDeadlineInElapsedTimeThoughTheWallClockWentBack() throws Exception {
    CutOff cutA = new CutOff();
    instance("a", cutA).run(a -> instance("b", new CutOff()).run(b -> {
      List<Set<Integer>> split = splitAndCheckpointOneRecordEach(a, b);
      Set<Integer> atA = split.get(0);
      Set<Integer> atB = split.get(1);

      cutA.cut = true;
      // The wall clock is stepped back an hour: a deadline on it would now lie an hour further away.
      // Stored expiries written before the step lie beyond any written after it, so b's renewals
      // are recognised by their exact expiry.
      clock.advance(Duration.ofHours(-1));
      Duration half = TTL.minus(MARGIN).dividedBy(2);
      elapse(half);
      awaitRenewalExactlyNow(b);
      assertThat(running(a)).as("before its deadline a still runs").isEqualTo(atA);
      elapse(half); // ttl - margin of elapsed time since a's last renewal: its deadline
      awaitTrue("a stops its partitions at the deadline on its ticker",
          () -> container(a).getPartitionStatuses().stream()
              .noneMatch(s -> s.state() == ObjlogListenerContainer.PartitionState.RUNNING));
      awaitRenewalExactlyNow(b);
      assertThat(running(b)).as("a's stored leases are still valid: b must not take them").isEqualTo(atB);

      clock.advance(Duration.ofHours(1).plus(TTL).plusMillis(1)); // the wall clock catches up: a's stored leases expire
      bTakesEveryPartitionAndProcessesNewRecords(b);
      cutA.cut = false;
    }));
    assertEachRecordProcessedOnceAndTheNewOnesByB();
  }

  @Test
  void aCheckpointConflictHandsThePartitionBackAndItRestartsFromTheStoredCheckpoint() throws Exception {
    instance("a", new CutOff()).run(a -> {
      awaitTrue("a runs every partition", () -> running(a).equals(Set.of(0, 1, 2, 3)));
      ObjlogTemplate template = a.getBean(ObjlogTemplate.class);
      template.send("orders", 0, "x").get(WAIT, TimeUnit.SECONDS);
      awaitTrue("x is checkpointed", () -> checkpoint(a, 0) == 1);
      CheckpointRepository shared = a.getBean(CheckpointRepository.class);
      LeaseId leaseKey = LeaseId.ofGroup("workers", LeaseId.Role.PARTITION, "orders", 0);
      LeaseStore leases = ((LeaseStoreProvider) shared).leaseStore();
      long epoch = leases.current(leaseKey).orElseThrow().epoch();
      // Another writer of the checkpoint (a member that held the partition before) saves behind a's back.
      CheckpointKey key = CheckpointKey.of("workers", "orders", 0);
      StoredCheckpoint stored = shared.load(key).orElseThrow();
      shared.save(key, stored.checkpoint(), stored.version());

      template.send("orders", 0, "y").get(WAIT, TimeUnit.SECONDS);
      awaitTrue("a takes partition 0 again and checkpoints y",
          () -> checkpoint(a, 0) == 2 && running(a).contains(0));
      assertThat(leases.current(leaseKey).orElseThrow().epoch())
          .as("the partition was released and taken again").isGreaterThan(epoch);
      assertThat(container(a).isInExpectedState()).as("handing a partition back is no failure").isTrue();
      assertThat(events).as("y is redelivered from the stored checkpoint, x is not")
          .containsExactly("a:0@0", "a:0@1", "a:0@1");
    });
  }

  /**
   * Waits until {@code context} renewed every lease it holds at the clock's current time, known by
   * the exact expiry (for when earlier expiries may lie beyond it).
   */
  private void awaitRenewalExactlyNow(ApplicationContext context) throws InterruptedException {
    Instant renewedNow = clock.instant().plus(TTL);
    awaitTrue("a renewal at exactly the current time", () -> container(context).getPartitionLeases().stream()
        .filter(ObjlogListenerContainer.PartitionLease::heldByThisInstance)
        .allMatch(l -> renewedNow.equals(l.until())));
  }

  /** Waits until {@code context} renewed every lease it holds at the clock's current time. */
  private void awaitRenewal(ApplicationContext context) throws InterruptedException {
    Instant renewedNow = clock.instant().plus(TTL);
    awaitTrue("a renewal at the current time", () -> container(context).getPartitionLeases().stream()
        .filter(ObjlogListenerContainer.PartitionLease::heldByThisInstance)
        .allMatch(l -> l.until() != null && !renewedNow.isAfter(l.until())));
  }

  /** The actuator endpoint's view of the group's leases: partition → "owner" or "owner (this instance)". */
  @SuppressWarnings("unchecked")
  private static Map<Integer, String> leaseOwners(ApplicationContext context) {
    Map<String, Object> listeners = (Map<String, Object>) context.getBean(ObjlogEndpoint.class).streams().get("listeners");
    Map<String, Object> group = (Map<String, Object>) ((Map<String, Object>) listeners.get("grouped")).get("group");
    assertThat(group).containsEntry("group", "workers").containsEntry("instanceId", "b");
    return ((List<Map<String, Object>>) group.get("leases")).stream().collect(Collectors.toMap(
        l -> (Integer) l.get("partition"),
        l -> l.get("owner") + (Boolean.TRUE.equals(l.get("heldByThisInstance")) ? " (this instance)" : "")));
  }

  private static long checkpoint(ApplicationContext context, int partition) {
    Optional<StoredCheckpoint> c = context.getBean(CheckpointRepository.class)
        .load(CheckpointKey.of("workers", "orders", partition));
    return c.map(s -> s.checkpoint().nextLsn()).orElse(-1L);
  }

  /** One instance's view of the shared repository, whose lease calls can be cut off. */
  record CuttableRepository(CheckpointRepository checkpoints, CutOff cut) implements CheckpointRepository, LeaseStoreProvider {

    private LeaseStore leases() {
      if (cut.cut) {
        throw new IllegalStateException("this instance cannot reach the lease store (cut by the test)");
      }
      return ((LeaseStoreProvider) checkpoints).leaseStore();
    }

    @Override
    public Optional<StoredCheckpoint> load(CheckpointKey key) {
      return checkpoints.load(key);
    }

    @Override
    public CheckpointVersion save(CheckpointKey key, CursorCheckpoint checkpoint, CheckpointVersion expectedVersion) {
      return checkpoints.save(key, checkpoint, expectedVersion);
    }

    @Override
    public LeaseStore leaseStore() {
      return new LeaseStore() {
        @Override
        public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
          return leases().tryAcquire(id, owner, ttl);
        }

        @Override
        public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
          return leases().renew(id, held, ttl);
        }

        @Override
        public boolean release(LeaseId id, Lease held) {
          return leases().release(id, held);
        }

        @Override
        public Optional<Lease> current(LeaseId id) {
          return leases().current(id);
        }
      };
    }
  }
}
