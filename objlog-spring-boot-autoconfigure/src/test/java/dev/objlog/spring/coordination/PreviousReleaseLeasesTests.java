package dev.objlog.spring.coordination;

import static dev.objlog.spring.coordination.LeaseLayoutTests.keys;
import static dev.objlog.spring.coordination.LeaseLayoutTests.rows;
import static dev.objlog.spring.coordination.LeaseLayoutTests.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.BucketLeaseStore;
import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.PreviousReleaseLeases;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import dev.objlog.store.VersionToken;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code objlog.checkpoint.hold-previous-release-leases}: the leases of this release held
 * together with those of the previous release, against that release's documents and rows as it
 * writes them (spelled out here byte for byte, not derived from the code under test): member
 * slots at {@code consumers/<group>#members/lease.json} and {@code
 * consumers/objlog-writer-members/lease.json}, rows of the groups {@code <group>#members}, {@code
 * objlog-writer} and {@code objlog-writer-members}, slot {@code i} at partition {@code i}.
 */
class PreviousReleaseLeasesTests {
  private static final Duration TTL = Duration.ofSeconds(10);
  private static final LeaseId WRITER_3 = LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 3);
  private static final LeaseId WRITER_SLOT_1 = LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", 1);
  private static final LeaseId BILLING_SLOT_2 = LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", 2);
  private static final String RELEASED = "{\"version\":1,\"owner\":\"\",\"lease_until_unix_ms\":0,\"epoch\":1}";

  private final MutableClock clock = new MutableClock();
  private final MemoryObjectStore bucket = new MemoryObjectStore();
  private final PreviousReleaseLeases inBucket = new PreviousReleaseLeases(new BucketLeaseStore(bucket, (stream, p) -> keys(p),
      clock), PreviousReleaseLeases.Layout.BUCKET);
  private final DataSource dataSource = TestDatabases.h2();
  private final String prefix = PartitionSharingSimulationTests.createTables(dataSource);
  private final JdbcTemplate jdbc = new JdbcTemplate(dataSource);
  private final PreviousReleaseLeases inTable =
      new PreviousReleaseLeases(new JdbcLeaseStore(jdbc, prefix, clock), PreviousReleaseLeases.Layout.ROWS);

  @AfterEach
  void dropTables() {
    PartitionSharingSimulationTests.dropTables(dataSource, prefix);
  }

  private String document(String owner, long until, long epoch) {
    return "{\"version\":1,\"owner\":\"" + owner + "\",\"lease_until_unix_ms\":" + until + ",\"epoch\":" + epoch + "}";
  }

  @Test
  void inTheBucketTheMemberSlotsAreAlsoHeldWhereThePreviousReleaseKeptThem() {
    inBucket.tryAcquire(WRITER_3, "writer-a", TTL);
    inBucket.tryAcquire(LeaseId.ofWriters(LeaseId.Role.MEMBER, "orders", 3), "writer-a", TTL);
    inBucket.tryAcquire(LeaseId.ofGroup("billing", LeaseId.Role.MEMBER, "orders", 3), "m-1", TTL);

    String dir = keys(3).catalogDir();
    long until = clock.millis() + 10_000;
    // The previous release's documents, byte for byte ...
    assertThat(text(bucket, dir + "maintenance/writer-lease.json")).isEqualTo(document("writer-a", until, 1));
    assertThat(text(bucket, dir + "consumers/objlog-writer-members/lease.json")).isEqualTo(document("writer-a", until, 1));
    assertThat(text(bucket, dir + "consumers/billing#members/lease.json")).isEqualTo(document("m-1", until, 1));
    // ... beside this release's (the writer lease did not move in the bucket).
    assertThat(text(bucket, dir + "maintenance/writer-member-lease.json")).isEqualTo(document("writer-a", until, 1));
    assertThat(text(bucket, dir + "consumers/billing/member-lease.json")).isEqualTo(document("m-1", until, 1));
    assertThat(bucket.list(dir, 100).entries()).hasSize(5);
  }

  @Test
  void inTheTableMemberSlotsAndWriterLeasesAreAlsoHeldWhereThePreviousReleaseKeptThem() {
    inTable.tryAcquire(WRITER_3, "writer-a", TTL);
    inTable.tryAcquire(WRITER_SLOT_1, "writer-a", TTL);
    inTable.tryAcquire(BILLING_SLOT_2, "m-1", TTL);

    long until = clock.millis() + 10_000;
    assertThat(rows(jdbc, prefix)).containsExactly(
        "billing orders 4294967298 m-1 " + until + " 1",
        "billing#members orders 2 m-1 " + until + " 1",
        "objlog-writer orders 3 writer-a " + until + " 1",
        "objlog-writer-members orders 1 writer-a " + until + " 1",
        "objlog/writers orders 3 writer-a " + until + " 1",
        "objlog/writers orders 4294967297 writer-a " + until + " 1");
  }

  @Test
  void aMemberSlotThePreviousReleaseHoldsInTheBucketKeepsThisReleaseOffIt() {
    String dir = keys(2).catalogDir();
    long until = clock.millis() + 10_000;
    bucket.compareAndSwap(dir + "consumers/billing#members/lease.json", VersionToken.ABSENT,
        document("old-1", until, 4).getBytes(StandardCharsets.UTF_8));

    LeaseResult result = inBucket.tryAcquire(BILLING_SLOT_2, "new-1", TTL);

    assertThat(result).isEqualTo(new LeaseResult.Refused(new Lease("old-1", clock.instant().plus(TTL), 4)));
    assertThat(inBucket.current(BILLING_SLOT_2).orElseThrow().owner()).as("this release counts the old member")
        .isEqualTo("old-1");
    assertThat(text(bucket, dir + "consumers/billing/member-lease.json")).as("taken and given back").isEqualTo(RELEASED);
    assertThat(text(bucket, dir + "consumers/billing#members/lease.json")).isEqualTo(document("old-1", until, 4));
  }

  @Test
  void aWriterLeaseThePreviousReleaseHoldsInTheTableKeepsThisReleaseOffThePartition() {
    long until = clock.millis() + 10_000;
    jdbc.update("insert into " + prefix + "lease (group_id, stream_name, partition_id, owner, lease_until_ms, epoch,"
        + " updated_at) values ('objlog-writer', 'orders', 3, 'writer-old', ?, 2, ?)", until, new Timestamp(clock.millis()));

    LeaseResult result = inTable.tryAcquire(WRITER_3, "writer-new", TTL);

    assertTheOldWriterKeepsPartition3(result, until);
    assertThat(inTable.current(WRITER_3).orElseThrow().owner()).isEqualTo("writer-old");
  }

  @Test
  void whenThePreviousReleaseTakesItsLeaseOverTheRenewalFailsAndThisReleasesLeaseIsGivenBack() {
    Lease held = inTable.tryAcquire(WRITER_3, "writer-new", TTL).grantedLease().orElseThrow();
    clock.advance(TTL); // this member stalled: both its leases expired
    // The previous release's writer takes its row as it always did.
    long until = clock.millis() + 10_000;
    assertThat(jdbc.update("update " + prefix + "lease set owner = 'writer-old', lease_until_ms = ?, epoch = 2"
        + " where group_id = 'objlog-writer' and partition_id = 3 and lease_until_ms <= ?", until, clock.millis()))
        .isEqualTo(1);

    LeaseResult renewal = inTable.renew(WRITER_3, held, TTL);

    assertTheOldWriterKeepsPartition3(renewal, until);
  }

  /** Refused for the previous release's writer-old (epoch 2); this release's row given back. */
  private void assertTheOldWriterKeepsPartition3(LeaseResult result, long until) {
    assertThat(result).isEqualTo(new LeaseResult.Refused(new Lease("writer-old", clock.instant().plus(TTL), 2)));
    assertThat(rows(jdbc, prefix)).containsExactly(
        "objlog-writer orders 3 writer-old " + until + " 2",
        "objlog/writers orders 3  0 1");
  }

  @Test
  void renewingAndReleasingActOnBothLeases() {
    Lease held = inTable.tryAcquire(WRITER_SLOT_1, "writer-a", TTL).grantedLease().orElseThrow();
    clock.advance(Duration.ofSeconds(4));
    Lease renewed = inTable.renew(WRITER_SLOT_1, held, TTL).grantedLease().orElseThrow();
    long until = clock.millis() + 10_000;
    assertThat(renewed.until()).isEqualTo(clock.instant().plus(TTL));
    assertThat(rows(jdbc, prefix)).containsExactly(
        "objlog-writer-members orders 1 writer-a " + until + " 1",
        "objlog/writers orders 4294967297 writer-a " + until + " 1");

    assertThat(inTable.release(WRITER_SLOT_1, renewed)).isTrue();

    assertThat(rows(jdbc, prefix)).containsExactly(
        "objlog-writer-members orders 1  0 1",
        "objlog/writers orders 4294967297  0 1");
    assertThat(inTable.current(WRITER_SLOT_1)).isEmpty();
  }

  @Test
  void consumerGroupPartitionLeasesDidNotMoveAndAreHeldOnce() {
    LeaseId partition = LeaseId.ofGroup("billing", LeaseId.Role.PARTITION, "orders", 0);
    assertThat(inTable.previousLocation(partition)).isEmpty();
    assertThat(inBucket.previousLocation(partition)).isEmpty();
    assertThat(inBucket.previousLocation(WRITER_3)).as("the bucket's writer lease did not move").isEmpty();
    inTable.tryAcquire(partition, "m-1", TTL);
    assertThat(rows(jdbc, prefix)).containsExactly("billing orders 0 m-1 " + (clock.millis() + 10_000) + " 1");
  }
}
