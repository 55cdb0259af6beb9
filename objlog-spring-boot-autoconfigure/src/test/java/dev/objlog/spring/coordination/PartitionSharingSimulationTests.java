package dev.objlog.spring.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.BucketLeaseStore;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointProperties;
import dev.objlog.spring.listener.checkpoint.CheckpointSchemaInitializer;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.Ci;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Never two owners at any instant, and a fair split once quiet, for every P ≤ 16 and M ≤ 5: each
 * (P, M) runs {@link SharingSimulation} on virtual time, with members joining, leaving, crashing
 * and stalling, over the bucket (a {@link FaultInjectingObjectStore} losing the replies of, or
 * timing out, compare-and-swaps and reads) and over JDBC (H2 always, PostgreSQL and MariaDB when
 * {@code OBJLOG_TEST_POSTGRES_URL} / {@code OBJLOG_TEST_MARIADB_URL} name them; requests time out
 * or lose their reply by a seeded coin). Half the seeds share as a consumer group, half as the
 * writers of a stream.
 *
 * <p>Size: {@code OBJLOG_SHARING_SIM_ROUNDS} rounds of all 80 (P, M) pairs on the bucket and H2 (2
 * under CI=true, 1 otherwise), one round on PostgreSQL and MariaDB; {@value #STEPS} churn steps each
 * on the bucket, {@value #JDBC_STEPS} on a database.
 */
class PartitionSharingSimulationTests {
  static final String ROUNDS = "OBJLOG_SHARING_SIM_ROUNDS";
  private static final int STEPS = 150;
  private static final int JDBC_STEPS = 40;
  private static final int MAX_PARTITIONS = 16;
  private static final int MAX_MEMBERS = 5;

  static int rounds() {
    return Ci.suiteSize(ROUNDS, 2, 1);
  }

  /** The bucket store of a run: faulty while the run says so, over one in-memory bucket. */
  static Function<SharingSimulation, LeaseStore> bucket(long seed) {
    return sim -> {
      MemoryObjectStore memory = new MemoryObjectStore();
      BucketLeaseStore.Locator locator =
          (stream, partition) -> PartitionKeys.of(KeyPrefixes.resolve("objlog"), "sim/" + stream, partition);
      FaultInjectingObjectStore faulty = FaultInjectingObjectStore.builder(memory).seed(seed).clock(sim.clock)
          .timeout(Duration.ZERO)
          .faultProbability(Operation.COMPARE_AND_SWAP, Fault.LOST_REPLY, 0.08)
          .faultProbability(Operation.COMPARE_AND_SWAP, Fault.TIMEOUT, 0.08)
          .faultProbability(Operation.GET, Fault.TIMEOUT, 0.03)
          .build();
      LeaseStore withFaults = new BucketLeaseStore(faulty, locator, sim.clock);
      LeaseStore clean = new BucketLeaseStore(memory, locator, sim.clock);
      return new Switched(() -> sim.faults ? withFaults : clean);
    };
  }

  /** A JDBC store on fresh tables of {@code dataSource}, failing by a coin while the run says so. */
  static Function<SharingSimulation, LeaseStore> jdbc(DataSource dataSource, String prefix, long seed) {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    return sim -> {
      jdbc.update("delete from " + prefix + "lease");
      return new FaultyLeaseStore(new JdbcLeaseStore(jdbc, prefix, sim.clock), seed * 31 + 7, 0.05, () -> sim.faults);
    };
  }

  static String createTables(DataSource dataSource) {
    String prefix = TestDatabases.uniqueTablePrefix();
    ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
    settings.setTablePrefix(prefix);
    new CheckpointSchemaInitializer(dataSource, settings).initialize();
    return prefix;
  }

  static void dropTables(DataSource dataSource, String prefix) {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    jdbc.execute("drop table if exists " + prefix + "checkpoint");
    jdbc.execute("drop table if exists " + prefix + "lease");
  }

  /** Every (P, M) for {@link #rounds()} rounds; returns the starts, to show the runs did something. */
  private static long everyPair(String what, int rounds, int steps,
      java.util.function.LongFunction<Function<SharingSimulation, LeaseStore>> store) {
    long starts = 0;
    long checks = 0;
    for (int round = 0; round < rounds; round++) {
      for (int p = 1; p <= MAX_PARTITIONS; p++) {
        for (int m = 1; m <= MAX_MEMBERS; m++) {
          long seed = round * 10_000L + p * 100L + m;
          SharingSimulation sim = new SharingSimulation(seed, p, m, store.apply(seed));
          sim.run(steps);
          starts += sim.starts;
          checks += sim.checks;
        }
      }
    }
    System.out.printf(Locale.ROOT, "partition sharing on %s: %d rounds x %d pairs, %d partition starts, %d checks%n",
        what, rounds, MAX_PARTITIONS * MAX_MEMBERS, starts, checks);
    return starts;
  }

  @Test
  void overTheBucketWithLostRepliesAndTimeouts() {
    assertThat(everyPair("the bucket", rounds(), STEPS, PartitionSharingSimulationTests::bucket))
        .as("partitions changed hands").isGreaterThan(MAX_PARTITIONS * MAX_MEMBERS);
  }

  @Test
  void overH2() {
    overDatabase("H2", TestDatabases.h2(), rounds());
  }

  @Test
  void overPostgreSql() {
    overDatabase("PostgreSQL", TestDatabases.postgres(), 1);
  }

  @Test
  void overMariaDb() {
    overDatabase("MariaDB", TestDatabases.mariadb(), 1);
  }

  /** {@code rounds}: a database server over the network costs about a minute a round. */
  private static void overDatabase(String name, DataSource dataSource, int rounds) {
    SingleConnectionDataSource connection = oneConnection(dataSource);
    String prefix = createTables(connection);
    try {
      assertThat(everyPair(name, rounds, JDBC_STEPS, seed -> jdbc(connection, prefix, seed)))
          .as("partitions changed hands").isGreaterThan(MAX_PARTITIONS * MAX_MEMBERS);
    } finally {
      dropTables(connection, prefix);
      connection.destroy();
    }
  }

  /** One connection for a whole run (the runs are single-threaded): no connect per statement. */
  static SingleConnectionDataSource oneConnection(DataSource dataSource) {
    try {
      return new SingleConnectionDataSource(dataSource.getConnection(), true);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("cannot connect to the test database", e);
    }
  }

  /** The oracle must catch a sharing that lets two members own a partition: a store that grants everything. */
  @Test
  void theOracleCatchesAStoreThatGrantsEveryLease() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> {
      for (long seed = 1; seed <= 20; seed++) {
        new SharingSimulation(seed, 4, 3, sim -> new GrantingEverything(sim.clock)).run(STEPS);
      }
    }).isInstanceOf(AssertionError.class).hasMessageContaining("never two owners");
  }
}
