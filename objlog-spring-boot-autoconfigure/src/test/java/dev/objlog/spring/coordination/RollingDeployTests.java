package dev.objlog.spring.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.BucketLeaseStore;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A rolling deploy: a consumer group of previous-release members ({@link PreviousReleaseMember}:
 * its lease keys, its member slots under {@code <group>#members}, its ceil(P/M) split) is replaced
 * member by member with members of this release while the group keeps running, with faults, joins
 * and crashes. Old and new members never both own a partition at any instant; once only new ones
 * are left and the group is quiet, every partition has one owner and the split is fair. Over the
 * bucket and over JDBC (H2; PostgreSQL and MariaDB when their variables name them).
 *
 * <p>And the writers' leases stay where the previous release kept them, so old and new writers
 * see each other's: {@code maintenance/writer-lease.json} and {@code
 * consumers/objlog-writer-members/lease.json} in the bucket, rows of the groups {@code
 * objlog-writer} and {@code objlog-writer-members} in the table.
 *
 * <p>Size: one round of P = 1..16 with M = 3 per store.
 */
class RollingDeployTests {
  private static final int STEPS = 60;

  private static void everyP(Function<Long, Function<SharingSimulation, LeaseStore>> store) {
    for (int p = 1; p <= 16; p++) {
      long seed = 500_000L + p;
      SharingSimulation sim = new SharingSimulation(seed, p, 3, true, store.apply(seed));
      try {
        sim.joining = SharingSimulation.Release.PREVIOUS;
        sim.churn(STEPS);
        while (sim.members.size() < 3) {
          sim.join();
        }
        sim.replaceAll(SharingSimulation.Release.CURRENT, 8);
        assertThat(sim.members).allMatch(m -> m.release == SharingSimulation.Release.CURRENT);
        sim.settle();
      } finally {
        sim.stopAll();
      }
    }
  }

  @Test
  void previousAndCurrentMembersNeverBothOwnAPartitionOverTheBucket() {
    everyP(PartitionSharingSimulationTests::bucket);
  }

  @Test
  void previousAndCurrentMembersNeverBothOwnAPartitionOverH2() {
    overDatabase(TestDatabases.h2());
  }

  @Test
  void previousAndCurrentMembersNeverBothOwnAPartitionOverPostgreSql() {
    overDatabase(TestDatabases.postgres());
  }

  @Test
  void previousAndCurrentMembersNeverBothOwnAPartitionOverMariaDb() {
    overDatabase(TestDatabases.mariadb());
  }

  private static void overDatabase(DataSource dataSource) {
    SingleConnectionDataSource connection = PartitionSharingSimulationTests.oneConnection(dataSource);
    String prefix = PartitionSharingSimulationTests.createTables(connection);
    try {
      everyP(seed -> PartitionSharingSimulationTests.jdbc(connection, prefix, seed));
    } finally {
      PartitionSharingSimulationTests.dropTables(connection, prefix);
      connection.destroy();
    }
  }

  @Test
  void writerLeasesLiveWhereThePreviousReleaseKeptThemInTheBucket() {
    MutableClock clock = new MutableClock();
    MemoryObjectStore bucket = new MemoryObjectStore();
    PartitionKeys keys = PartitionKeys.of(KeyPrefixes.resolve("objlog"), "shop/orders", 3);
    BucketLeaseStore store = new BucketLeaseStore(bucket, (stream, partition) -> {
      assertThat(stream).isEqualTo("orders");
      return PartitionKeys.of(KeyPrefixes.resolve("objlog"), "shop/orders", partition);
    }, clock);
    store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 3), "writer-a", Duration.ofSeconds(10));
    store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", 3), "writer-a", Duration.ofSeconds(10));
    store.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", 3), "m-1", Duration.ofSeconds(10));
    String until = Long.toString(clock.millis() + 10_000);
    assertThat(text(bucket, keys.catalogDir() + "maintenance/writer-lease.json"))
        .isEqualTo("{\"version\":1,\"owner\":\"writer-a\",\"lease_until_unix_ms\":" + until + ",\"epoch\":1}");
    assertThat(text(bucket, keys.catalogDir() + "consumers/objlog-writer-members/lease.json"))
        .isEqualTo("{\"version\":1,\"owner\":\"writer-a\",\"lease_until_unix_ms\":" + until + ",\"epoch\":1}");
    assertThat(text(bucket, keys.catalogDir() + "consumers/billing#members/lease.json"))
        .isEqualTo("{\"version\":1,\"owner\":\"m-1\",\"lease_until_unix_ms\":" + until + ",\"epoch\":1}");
  }

  @Test
  void writerLeasesLiveWhereThePreviousReleaseKeptThemInTheTable() {
    DataSource dataSource = TestDatabases.h2();
    String prefix = PartitionSharingSimulationTests.createTables(dataSource);
    MutableClock clock = new MutableClock();
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    JdbcLeaseStore store = new JdbcLeaseStore(jdbc, prefix, clock);
    store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 3), "writer-a", Duration.ofSeconds(10));
    store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", 1), "writer-a", Duration.ofSeconds(10));
    store.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", 2), "m-1", Duration.ofSeconds(10));
    assertThat(jdbc.queryForList("select group_id, stream_name, partition_id, owner, lease_until_ms, epoch from "
        + prefix + "lease order by group_id"))
        .extracting(row -> row.get("GROUP_ID") + " " + row.get("STREAM_NAME") + " " + row.get("PARTITION_ID") + " "
            + row.get("OWNER") + " " + row.get("LEASE_UNTIL_MS") + " " + row.get("EPOCH"))
        .containsExactly(
            "billing#members orders 2 m-1 " + (clock.millis() + 10_000) + " 1",
            "objlog-writer orders 3 writer-a " + (clock.millis() + 10_000) + " 1",
            "objlog-writer-members orders 1 writer-a " + (clock.millis() + 10_000) + " 1");
  }

  private static String text(MemoryObjectStore bucket, String key) {
    return new String(bucket.get(key).bytes(), StandardCharsets.UTF_8);
  }
}
