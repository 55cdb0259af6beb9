package dev.objlog.spring.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.reliability.ChildJvm;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.JdbcCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * SIGKILL around the database commit of an effectively-once listener (issue #13): RECORD mode with
 * a transaction manager, one inserted row per record and the JDBC checkpoint saved in the same
 * transaction ({@link TransactionalListenerCrashChild}). Each child but the last blocks just before
 * or just after the commit of its n-th record (n random, 1..8) and is killed there; the parent then
 * checks the database with the child dead: killed before the commit, the record's row is absent and
 * the checkpoint is at that record; killed after, the row is present once and the checkpoint is
 * past it. The next child must start exactly at the stored checkpoint. The last child runs to the
 * end. Then: rows = distinct LSNs = every LSN, none missing, none twice.
 *
 * <p>Kills per database: {@code OBJLOG_JDBC_CRASH_KILLS} (default 2, with or without CI=true),
 * alternating before and after the commit.
 */
abstract class TransactionalListenerCrashContract {
  static final String KILLS = "OBJLOG_JDBC_CRASH_KILLS";
  private static final String STREAM_ID = "crash/tx-orders";

  @TempDir Path dir;

  /** The JDBC URL both JVMs use; the database must exist (or be created on first use). */
  protected abstract String jdbcUrl(Path dir);

  @Test
  @Timeout(900)
  void killsJustBeforeAndJustAfterTheCommitLeaveExactlyOneRowPerRecord() throws Exception {
    int kills = kills();
    String url = jdbcUrl(dir);
    String prefix = TestDatabases.uniqueTablePrefix();
    String table = prefix + "seen";
    JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url));
    jdbc.execute("create table " + table + " (lsn bigint not null)");
    JdbcCheckpointRepository checkpoints = new JdbcCheckpointRepository(jdbc, prefix, Clock.systemUTC());
    CheckpointKey key = CheckpointKey.of(TransactionalListenerCrashChild.LISTENER, "orders", 0);
    SplittableRandom random = new SplittableRandom(kills * 17L + 3);
    int records = 12 * (kills + 1);
    Path root = dir.resolve("bucket");
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root);
        Objlog log = Objlog.open(store, STREAM_ID, ObjlogOptions.builder().prefix("objlog").build());
        PartitionWriter writer = log.openWriter(0)) {
      for (int i = 0; i < records; i++) {
        writer.append(LogRecord.of(i, "r" + i));
      }
      writer.flush();
    }
    List<String> history = new ArrayList<>();
    int[] killedAt = new int[2];
    try {
      for (int k = 0; k <= kills; k++) {
        boolean last = k == kills;
        String point = k % 2 == 0 ? "BEFORE_COMMIT" : "AFTER_COMMIT";
        int pauseAt = 1 + random.nextInt(8);
        // The first child creates the checkpoint table.
        long saved = k == 0 ? 0 : checkpointOf(checkpoints, key);
        try (ChildJvm child = new ChildJvm(TransactionalListenerCrashChild.class,
            properties(root, url, table, prefix, last ? "NONE" : point, pauseAt))) {
          assertThat(child.awaitLine("READY .", 120_000)).as("child %d started: %s", k, child.tail()).isTrue();
          String paused = null;
          if (last) {
            assertThat(child.awaitLine("COMMITTED " + (records - 1) + " .", 120_000))
                .as("final child committed the last record: %s", child.tail()).isTrue();
          } else {
            paused = awaitPrefix(child, "PAUSED " + point + " ", 120_000);
          }
          child.kill();
          List<Long> got = lsns(child, "GOT");
          history.add("child " + k + " from " + saved + (last ? " to the end" : " killed " + paused) + ", got " + got);
          if (!got.isEmpty()) {
            assertThat(got.get(0)).as("child %d starts exactly at the stored checkpoint (%s)", k, history).isEqualTo(saved);
          }
          if (!last) {
            long lsn = Long.parseLong(paused.split(" ")[2]);
            long rows = count(jdbc, table, lsn);
            long checkpoint = checkpointOf(checkpoints, key);
            if (point.equals("BEFORE_COMMIT")) {
              assertThat(rows).as("killed before the commit: no row for LSN %d (%s)", lsn, history).isZero();
              assertThat(checkpoint).as("killed before the commit: the checkpoint stays at LSN %d", lsn).isEqualTo(lsn);
              killedAt[0]++;
            } else {
              assertThat(rows).as("killed after the commit: one row for LSN %d (%s)", lsn, history).isEqualTo(1);
              assertThat(checkpoint).as("killed after the commit: the checkpoint is past LSN %d", lsn).isEqualTo(lsn + 1);
              killedAt[1]++;
            }
          }
        }
      }
      Map<String, Object> totals = jdbc.queryForMap(
          "select count(*) as n, count(distinct lsn) as d, min(lsn) as lo, max(lsn) as hi from " + table);
      assertThat(((Number) totals.get("n")).longValue()).as("one row per record, none twice (%s)", history)
          .isEqualTo(records);
      assertThat(((Number) totals.get("d")).longValue()).as("every LSN has a row, none missing (%s)", history)
          .isEqualTo(records);
      assertThat(((Number) totals.get("lo")).longValue()).isZero();
      assertThat(((Number) totals.get("hi")).longValue()).isEqualTo(records - 1);
      assertThat(checkpointOf(checkpoints, key)).as("final checkpoint").isEqualTo(records);
      System.out.printf("jdbc listener crash (%s): %d kills before and %d after the commit, %d records, one row each%n",
          getClass().getSimpleName(), killedAt[0], killedAt[1], records);
    } finally {
      for (String t : List.of("seen", "checkpoint", "lease")) {
        jdbc.execute("drop table if exists " + prefix + t);
      }
    }
  }

  private static long checkpointOf(JdbcCheckpointRepository checkpoints, CheckpointKey key) {
    return checkpoints.load(key).map(c -> c.checkpoint().nextLsn()).orElse(0L);
  }

  private static long count(JdbcTemplate jdbc, String table, long lsn) {
    Long n = jdbc.queryForObject("select count(*) from " + table + " where lsn = ?", Long.class, lsn);
    return n == null ? 0 : n;
  }

  private static List<Long> lsns(ChildJvm child, String tag) {
    List<Long> out = new ArrayList<>();
    for (String line : child.lines) {
      String[] p = line.split(" ");
      if (p.length == 3 && p[0].equals(tag) && p[2].equals(".")) {
        out.add(Long.parseLong(p[1]));
      }
    }
    return out;
  }

  private static String awaitPrefix(ChildJvm child, String prefix, long millis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + millis;
    while (System.currentTimeMillis() < deadline) {
      for (String l : child.lines) {
        if (l.startsWith(prefix) && l.endsWith(" .")) {
          return l;
        }
      }
      if (!child.process.isAlive()) {
        break;
      }
      Thread.sleep(5);
    }
    throw new AssertionError("child never reached " + prefix + ": " + child.tail());
  }

  private static String[] properties(Path root, String url, String table, String prefix, String pause, int pauseAt) {
    return new String[] {
      "objlog.store.type=filesystem",
      "objlog.store.filesystem.root=" + root,
      "objlog.store.prefix=objlog",
      "objlog.streams.orders.stream-id=" + STREAM_ID,
      "objlog.streams.orders.partitions=1",
      "objlog.checkpoint.store=jdbc",
      "objlog.checkpoint.jdbc.initialize-schema=always",
      "objlog.checkpoint.jdbc.table-prefix=" + prefix,
      "objlog.listener.poll-interval=20ms",
      "crash.jdbc-url=" + url,
      "crash.table=" + table,
      "crash.pause=" + pause,
      "crash.pause-at=" + pauseAt,
      "logging.level.root=WARN",
      "spring.main.banner-mode=off",
    };
  }

  static int kills() {
    // One kill before and one after the commit; each costs a Spring start (~8 s).
    return dev.objlog.testing.Ci.suiteSize(KILLS, 2, 2);
  }
}
