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
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Where each lease lives, so that no consumer group name reaches another lease: member slots and
 * writer leases in the bucket in documents of their own ({@code consumers/<group>/member-lease.json},
 * {@code maintenance/writer-lease.json}, {@code maintenance/writer-member-lease.json}); in rows
 * under the group {@code objlog/writers} (no group name has a {@code /}) and, for member slots, at
 * partition {@code 2^32 + slot} (partitions are below 2^32). The lease document and the row
 * columns are those of the previous release.
 */
class LeaseLayoutTests {
  private static final Duration TTL = Duration.ofSeconds(10);
  /** The names under which the previous release kept member slots and writer leases. */
  private static final List<String> FORMERLY_RESERVED = List.of("objlog-writer", "objlog-writer-members", "billing#members");

  private final MutableClock clock = new MutableClock();

  @Test
  void inTheBucketMemberSlotsAndWriterLeasesHaveDocumentsOfTheirOwn() {
    MemoryObjectStore bucket = new MemoryObjectStore();
    BucketLeaseStore store = bucket(bucket);
    store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 3), "writer-a", TTL);
    store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", 3), "writer-a", TTL);
    store.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", 3), "m-1", TTL);
    store.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.PARTITION, "orders", 3), "m-2", TTL);

    String dir = keys(3).catalogDir();
    String until = Long.toString(clock.millis() + 10_000);
    assertThat(text(bucket, dir + "maintenance/writer-lease.json"))
        .isEqualTo("{\"version\":1,\"owner\":\"writer-a\",\"lease_until_unix_ms\":" + until + ",\"epoch\":1}");
    assertThat(text(bucket, dir + "maintenance/writer-member-lease.json"))
        .isEqualTo("{\"version\":1,\"owner\":\"writer-a\",\"lease_until_unix_ms\":" + until + ",\"epoch\":1}");
    assertThat(text(bucket, dir + "consumers/billing/member-lease.json"))
        .isEqualTo("{\"version\":1,\"owner\":\"m-1\",\"lease_until_unix_ms\":" + until + ",\"epoch\":1}");
    assertThat(text(bucket, dir + "consumers/billing/lease.json"))
        .isEqualTo("{\"version\":1,\"owner\":\"m-2\",\"lease_until_unix_ms\":" + until + ",\"epoch\":1}");
    assertThat(bucket.list(dir, 100).entries().stream().map(o -> o.key().substring(dir.length())).toList())
        .containsExactlyInAnyOrder("maintenance/writer-lease.json", "maintenance/writer-member-lease.json",
            "consumers/billing/member-lease.json", "consumers/billing/lease.json");
  }

  @Test
  void inTheTableWritersHaveTheirOwnGroupAndMemberSlotsLieBeyondEveryPartition() {
    DataSource dataSource = TestDatabases.h2();
    String prefix = PartitionSharingSimulationTests.createTables(dataSource);
    try {
      JdbcTemplate jdbc = new JdbcTemplate(dataSource);
      JdbcLeaseStore store = new JdbcLeaseStore(jdbc, prefix, clock);
      store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 3), "writer-a", TTL);
      store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", 1), "writer-a", TTL);
      store.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", 2), "m-1", TTL);
      store.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.PARTITION, "orders", 2), "m-2", TTL);
      long until = clock.millis() + 10_000;
      assertThat(rows(jdbc, prefix)).containsExactly(
          "billing orders 2 m-2 " + until + " 1",
          "billing orders 4294967298 m-1 " + until + " 1",
          "objlog/writers orders 3 writer-a " + until + " 1",
          "objlog/writers orders 4294967297 writer-a " + until + " 1");
    } finally {
      PartitionSharingSimulationTests.dropTables(dataSource, prefix);
    }
  }

  @Test
  void groupsNamedAsThePreviousReleasesReservedLeasesDoNotClashInTheBucket() {
    noClash(bucket(new MemoryObjectStore()));
  }

  @Test
  void groupsNamedAsThePreviousReleasesReservedLeasesDoNotClashInTheTable() {
    DataSource dataSource = TestDatabases.h2();
    String prefix = PartitionSharingSimulationTests.createTables(dataSource);
    try {
      noClash(new JdbcLeaseStore(new JdbcTemplate(dataSource), prefix, clock));
    } finally {
      PartitionSharingSimulationTests.dropTables(dataSource, prefix);
    }
  }

  @Test
  void groupsNamedAsThePreviousReleasesReservedLeasesDoNotClashInMemory() {
    noClash(new InMemoryLeaseStore(clock));
  }

  /**
   * The writers and the group {@code billing} hold every member slot and writer lease of
   * partition 0..3; groups with the formerly reserved names still get every partition lease, and
   * take nothing from them.
   */
  private void noClash(LeaseStore store) {
    for (int i = 0; i < 4; i++) {
      assertThat(store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", i), "writer", TTL).granted()).isTrue();
      assertThat(store.tryAcquire(LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", i), "writer", TTL).granted()).isTrue();
      assertThat(store.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", i), "billing-member", TTL)
          .granted()).isTrue();
    }
    for (String group : FORMERLY_RESERVED) {
      for (int i = 0; i < 4; i++) {
        LeaseId partition = LeaseId.ofGroup(group, LeaseId.Role.PARTITION, "orders", i);
        assertThat(store.current(partition)).as(group + " " + i).isEmpty();
        assertThat(store.tryAcquire(partition, "consumer", TTL).grantedLease().orElseThrow().epoch())
            .as(group + " " + i).isEqualTo(1);
        LeaseId slot = LeaseId.ofGroup(group, LeaseId.Role.MEMBER, "orders", i);
        assertThat(store.tryAcquire(slot, "consumer", TTL).grantedLease().orElseThrow().epoch())
            .as(group + " slot " + i).isEqualTo(1);
      }
    }
    for (int i = 0; i < 4; i++) {
      assertThat(store.current(LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", i)).orElseThrow().owner())
          .isEqualTo("writer");
      assertThat(store.current(LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", i)).orElseThrow().owner())
          .isEqualTo("writer");
      assertThat(store.current(LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", i)).orElseThrow().owner())
          .isEqualTo("billing-member");
    }
  }

  private BucketLeaseStore bucket(MemoryObjectStore bucket) {
    return new BucketLeaseStore(bucket, (stream, partition) -> {
      assertThat(stream).isEqualTo("orders");
      return keys(partition);
    }, clock);
  }

  static PartitionKeys keys(int partition) {
    return PartitionKeys.of(KeyPrefixes.resolve("objlog"), "shop/orders", partition);
  }

  static String text(MemoryObjectStore bucket, String key) {
    return new String(bucket.get(key).bytes(), StandardCharsets.UTF_8);
  }

  /** The lease rows, as {@code group stream partition owner until epoch}, by group and partition. */
  static List<String> rows(JdbcTemplate jdbc, String prefix) {
    return jdbc.queryForList("select group_id, stream_name, partition_id, owner, lease_until_ms, epoch from "
            + prefix + "lease order by group_id, partition_id").stream()
        .map(row -> row.get("GROUP_ID") + " " + row.get("STREAM_NAME") + " " + row.get("PARTITION_ID") + " "
            + row.get("OWNER") + " " + row.get("LEASE_UNTIL_MS") + " " + row.get("EPOCH"))
        .toList();
  }
}
