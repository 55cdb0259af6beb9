package dev.objlog.spring.coordination;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PreviousReleaseLeases;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import java.util.function.Function;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A rolling deploy: a consumer group (or the writers of a stream) of previous-release members
 * ({@link PreviousReleaseMember}: its lease keys, its member slots under {@code <group>#members}
 * or {@code objlog-writer-members}, its writer rows under {@code objlog-writer}, its ceil(P/M)
 * split) is replaced member by member with members of this release, which hold the previous
 * release's leases too ({@code objlog.checkpoint.hold-previous-release-leases}: {@link
 * PreviousReleaseLeases}), while the group keeps running, with faults, joins and crashes. Old and
 * new members never both own a partition at any instant; once only new ones are left and the
 * group is quiet, every partition has one owner and the split is fair. Over the bucket and over
 * JDBC (H2; PostgreSQL and MariaDB when their variables name them).
 *
 * <p>Size: one round of P = 1..16 with M = 3 per store and kind of group.
 */
class RollingDeployTests {
  private static final int STEPS = 60;

  private static void everyP(boolean consumerGroup, PreviousReleaseLeases.Layout layout,
      Function<Long, Function<SharingSimulation, LeaseStore>> store) {
    for (int p = 1; p <= 16; p++) {
      long seed = 500_000L + p;
      SharingSimulation sim = new SharingSimulation(seed, p, 3, consumerGroup, store.apply(seed));
      sim.previousRelease = layout;
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
    everyP(true, PreviousReleaseLeases.Layout.BUCKET, PartitionSharingSimulationTests::bucket);
  }

  @Test
  void previousAndCurrentWritersNeverBothOwnAPartitionOverTheBucket() {
    everyP(false, PreviousReleaseLeases.Layout.BUCKET, PartitionSharingSimulationTests::bucket);
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

  /** A consumer group, then the writers of a stream. */
  private static void overDatabase(DataSource dataSource) {
    SingleConnectionDataSource connection = PartitionSharingSimulationTests.oneConnection(dataSource);
    String prefix = PartitionSharingSimulationTests.createTables(connection);
    try {
      for (boolean consumerGroup : new boolean[] {true, false}) {
        everyP(consumerGroup, PreviousReleaseLeases.Layout.ROWS,
            seed -> PartitionSharingSimulationTests.jdbc(connection, prefix, seed));
      }
    } finally {
      PartitionSharingSimulationTests.dropTables(connection, prefix);
      connection.destroy();
    }
  }
}
