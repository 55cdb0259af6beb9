package dev.objlog.spring.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.reliability.ChildJvm;
import dev.objlog.spring.listener.checkpoint.BucketCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CatalogLocator;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash test of the Spring listener container (issue #9): a child JVM runs a minimal Spring
 * application whose {@code @ObjlogListener} consumes a stream on the filesystem store, with its
 * checkpoints in the bucket ({@code objlog.checkpoint.store=bucket}), and is killed with SIGKILL at
 * random moments while this test keeps appending. Each restart uses a random checkpoint mode
 * (record, batch, count, time). After every kill: the stored checkpoint never runs ahead of what
 * was processed (no gap), the next child starts exactly at the stored checkpoint (redelivery only
 * of records after the last checkpoint: at-least-once) and processes in order with no gap; at the
 * end every LSN was processed.
 *
 * <p>Kills: {@code OBJLOG_LISTENER_CRASH_KILLS} (default 10 with {@code CI=true}, 3 otherwise).
 */
class ListenerCrashTests {
  static final String LISTENER = "crash-listener";
  static final String KILLS = "OBJLOG_LISTENER_CRASH_KILLS";
  private static final String STREAM_ID = "crash/orders";

  @TempDir
  Path dir;

  @Test
  @Timeout(1200)
  void killedListenerResumesFromItsCheckpointWithNoGap() throws Exception {
    int kills = kills();
    SplittableRandom random = new SplittableRandom(kills * 31L + 7);
    Path root = dir.resolve("bucket");
    FilesystemObjectStore store = FilesystemObjectStore.open(root);
    var checkpoints = new BucketCheckpointRepository(store, CatalogLocator.of("objlog", name -> STREAM_ID));
    CheckpointKey key = CheckpointKey.of(LISTENER, "orders", 0);
    BitSet processed = new BitSet();
    long highest = -1;
    long records = 0;
    long redelivered = 0;
    List<String> history = new ArrayList<>();
    try (Objlog log = Objlog.open(store, STREAM_ID, ObjlogOptions.builder().prefix("objlog").build())) {
      PartitionWriter writer = log.openWriter(0);
      for (int k = 0; k <= kills; k++) {
        long saved = checkpoints.load(key).map(c -> c.checkpoint().nextLsn()).orElse(0L);
        assertThat(saved).as("checkpoint before child %d never ahead of what was processed (%s)", k, history)
            .isLessThanOrEqualTo(highest + 1);
        int add = 100 + random.nextInt(300);
        for (int i = 0; i < add; i++) {
          writer.append(LogRecord.of(records, "r" + records));
          records++;
        }
        writer.flush();
        String mode = List.of("record", "batch", "count", "time").get(random.nextInt(4));
        boolean last = k == kills;
        try (ChildJvm child = new ChildJvm(ListenerCrashChild.class, properties(root, mode, random))) {
          assertThat(child.awaitLine("READY .", 120_000)).as("child %d started: %s", k, child.tail()).isTrue();
          if (last) {
            assertThat(child.awaitLine("GOT " + (records - 1) + " .", 120_000))
                .as("final child caught up to %d: %s", records - 1, child.tail()).isTrue();
          } else {
            Thread.sleep(50 + random.nextInt(600));
          }
          child.kill();
          long highestBefore = highest;
          List<Long> got = new ArrayList<>();
          for (String line : child.lines) {
            String[] p = line.split(" ");
            if (p.length == 3 && p[0].equals("GOT") && p[2].equals(".")) {
              got.add(Long.parseLong(p[1]));
            }
          }
          long again = got.stream().filter(lsn -> lsn <= highestBefore).count();
          redelivered += again;
          history.add("child " + k + " (" + mode + "): from " + saved + ", " + got.size() + " records"
              + (got.isEmpty() ? "" : " to " + got.get(got.size() - 1)) + ", " + again + " again");
          if (!got.isEmpty()) {
            assertThat(got.get(0)).as("child %d resumes exactly at its checkpoint (%s)", k, history).isEqualTo(saved);
          }
          for (int i = 1; i < got.size(); i++) {
            assertThat(got.get(i)).as("child %d processes in order with no gap (%s)", k, history)
                .isEqualTo(got.get(i - 1) + 1);
          }
          for (long lsn : got) {
            processed.set((int) lsn);
            highest = Math.max(highest, lsn);
          }
        }
      }
      long after = checkpoints.load(key).map(c -> c.checkpoint().nextLsn()).orElse(0L);
      assertThat(after).as("final checkpoint never ahead of what was processed").isLessThanOrEqualTo(highest + 1);
      writer.close();
    }
    assertThat(processed.nextClearBit(0)).as("every record processed at least once; %s", history).isEqualTo(records);
    System.out.printf("spring listener crash: %d kills, %d records, all processed, %d redelivered after the last"
        + " checkpoint, resumed at checkpoints; %s%n", kills, records, redelivered, history);
  }

  private static String[] properties(Path root, String mode, SplittableRandom random) {
    return new String[] {
      "objlog.store.type=filesystem",
      "objlog.store.filesystem.root=" + root,
      "objlog.store.prefix=objlog",
      "objlog.streams.orders.stream-id=" + STREAM_ID,
      "objlog.streams.orders.partitions=1",
      "objlog.checkpoint.store=bucket",
      "objlog.listener.poll-interval=20ms",
      "objlog.listener.checkpoint-mode=" + mode,
      "objlog.listener.ack-count=" + (2 + random.nextInt(30)),
      "objlog.listener.ack-time=" + (5 + random.nextInt(100)) + "ms",
      "crash.record-delay-micros=" + random.nextInt(2500),
      "logging.level.root=WARN",
      "spring.main.banner-mode=off",
    };
  }

  static int kills() {
    return dev.objlog.testing.Ci.suiteSize(KILLS, 10, 3);
  }
}
