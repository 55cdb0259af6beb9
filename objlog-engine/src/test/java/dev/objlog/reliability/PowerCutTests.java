package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power cuts under the filesystem store (issue #13): a writer runs on {@link PowerCutFileSystem},
 * the power goes at every crash point of the run in turn (every file created, write, force,
 * directory created, delete and rename, enumerated in order), and the store is reopened on each
 * of three images of the disk: nothing unsynced survived, everything did (a process crash), and a
 * seeded mix. Every record whose {@code committed()} future completed before the cut must be in
 * the log at its LSN, LSNs dense, the catalog tree valid, and a new writer must take over and
 * commit (the store repairs sidecars and generations on the way).
 *
 * <p>The run is deterministic (every flush waits, batches are cut only by flushes), so the same
 * crash point index is the same call in every run; the test checks that a run without a cut
 * passes the same number of points twice. Rounds (flushes per writer) come from {@code
 * OBJLOG_POWER_CUT_ROUNDS} (CI 3, otherwise 2); rounds 1–3 write
 * batches of 1, 2 and 3 records. Distinct images only are reopened (many cuts between two forces
 * leave the same disk).
 */
class PowerCutTests {
  private static final String STREAM = "power/cut";

  @TempDir Path dir;

  static int rounds() {
    return Budgets.count("OBJLOG_POWER_CUT_ROUNDS", 3, 2);
  }

  @Test
  @Timeout(900)
  void everyAcknowledgedRecordSurvivesAPowerCutAtEveryCrashPoint() throws Exception {
    // The disk is rewritten hundreds of times; in memory (tmpfs) when the machine has one, since
    // on a busy shared disk the folder deletes alone cost most of the time.
    Path shm = Path.of("/dev/shm");
    Path disk = Files.isDirectory(shm) && Files.isWritable(shm)
        ? Files.createTempDirectory(shm, "objlog-power-cut-")
        : Files.createDirectories(dir.resolve("disk"));
    try {
      everyCrashPoint(new PowerCutFileSystem(disk));
    } finally {
      if (!disk.startsWith(dir)) {
        try (java.util.stream.Stream<Path> walk = Files.walk(disk)) {
          for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
            Files.deleteIfExists(p);
          }
        }
      }
    }
  }

  private void everyCrashPoint(PowerCutFileSystem fs) throws Exception {
    PowerCutFileSystem.Image empty = new PowerCutFileSystem.Image("empty", new java.util.TreeMap<>());
    int rounds = rounds();

    fs.restore(empty);
    Run reference = run(fs, -1, 0, rounds);
    long total = fs.points();
    java.util.List<String> trace = fs.trace();
    fs.restore(empty);
    run(fs, -1, 0, rounds);
    assertThat(fs.trace()).as("crash points of two runs without a cut (the run must be deterministic)").isEqualTo(trace);
    assertThat(reference.acknowledged()).as("acknowledged records of a run without a cut").hasSize(2 * java.util.stream.IntStream.range(0, rounds).map(r -> r % 3 + 1).sum());

    long started = System.nanoTime();
    // Between two forces the durable state does not change, so many cuts leave the same disk;
    // each distinct (disk, acknowledged set) is reopened once.
    java.util.Set<String> checked = new java.util.HashSet<>();
    int images = 0;
    int duplicates = 0;
    int acknowledgedChecked = 0;
    int nonEmptyLogs = 0;
    for (long point = 0; point < total; point++) {
      fs.restore(empty);
      Run cut = run(fs, point, point * 7919 + 1, rounds);
      PowerCutFileSystem.Images taken = fs.images();
      assertThat(taken).as("the run reached crash point %d of %d", point, total).isNotNull();
      for (PowerCutFileSystem.Image image : taken.all()) {
        if (!checked.add(fingerprint(image, cut.acknowledged()))) {
          duplicates++;
          continue;
        }
        fs.restore(image);
        try {
          nonEmptyLogs += reopenAndCheck(fs, cut.acknowledged()) ? 1 : 0;
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("power cut before crash point " + point + " of " + total + " (" + image.name()
              + " image, " + cut.acknowledged().size() + " acknowledged): " + e.getMessage(), e);
        }
        images++;
        acknowledgedChecked += cut.acknowledged().size();
      }
    }
    System.out.printf("power cut: %d rounds, %d crash points, %d distinct images reopened (%d with a log; %d"
            + " duplicates skipped), %d acknowledged records checked, %d ms%n",
        rounds, total, images, nonEmptyLogs, duplicates, acknowledgedChecked, (System.nanoTime() - started) / 1_000_000);
  }

  private static String fingerprint(PowerCutFileSystem.Image image, Map<String, Long> acknowledged) throws Exception {
    java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
    for (Map.Entry<String, PowerCutFileSystem.Image.Entry> e : image.entries().entrySet()) {
      sha.update((e.getKey() + "\0" + e.getValue().inode() + "\0" + e.getValue().modified() + "\0")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8));
      if (!e.getValue().directory()) {
        sha.update(e.getValue().bytes());
      }
    }
    sha.update(new java.util.TreeMap<>(acknowledged).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return java.util.HexFormat.of().formatHex(sha.digest());
  }

  record Run(Map<String, Long> acknowledged) {}

  static ObjectStore open(PowerCutFileSystem fs) {
    return FilesystemObjectStore.builder(fs.disk().resolve("bucket")).sleeper(d -> {}).build();
  }

  /**
   * Two writer incarnations, each committing {@code rounds} flushes of 1–3 records (the second
   * takes the partition over from the first). Returns what was acknowledged before the cut.
   */
  private static Run run(PowerCutFileSystem fs, long cutAt, long mixSeed, int rounds) {
    Map<String, Long> acked = new ConcurrentHashMap<>();
    AtomicReference<Map<String, Long>> atCut = new AtomicReference<>();
    fs.cutAt(cutAt, mixSeed, () -> atCut.set(new HashMap<>(acked)));
    long ts = 1_000;
    // Seeded segment names make the lock stripes, and so the lock files created, the same each run.
    ObjlogOptions options = ObjlogOptions.builder().random(new java.util.SplittableRandom(17)).build();
    try (ObjectStore store = open(fs); Objlog log = Objlog.open(store, STREAM, options)) {
      for (int w = 0; w < 2; w++) {
        PartitionWriter writer =
            log.openWriter(0, WriterOptions.builder().batch(Duration.ZERO, 1 << 20, 1_000).build());
        try {
          long epoch = writer.state().committed().writerEpoch();
          long seq = 0;
          for (int r = 0; r < rounds; r++) {
            for (int i = 0; i <= r % 3; i++) {
              String v = LogChecker.value("w" + w, epoch, seq++);
              AppendResult a = writer.append(LogRecord.of(ts++, v));
              a.committed().thenAccept(h -> acked.put(v, a.lsn()));
            }
            writer.flush();
          }
          writer.close();
        } finally {
          writer.abort();
        }
      }
    } catch (RuntimeException e) {
      if (fs.images() == null) {
        throw new AssertionError("the writer failed with the power on: " + e, e);
      }
    }
    if (fs.images() == null) {
      return new Run(Map.copyOf(acked));
    }
    return new Run(atCut.get());
  }

  /** Reopens the store on the restored disk and checks the log; true if a log was there. */
  private static boolean reopenAndCheck(PowerCutFileSystem fs, Map<String, Long> acknowledged) {
    try (ObjectStore store = open(fs); Objlog log = Objlog.open(store, STREAM)) {
      boolean hadLog = log.head(0).isPresent();
      LogChecker.check(LogChecker.scan(log, 0), acknowledged);
      if (hadLog) {
        LogChecker.verifyTree(log, store, 0);
      }
      Map<String, Long> expected = new HashMap<>(acknowledged);
      try (PartitionWriter next = log.openWriter(0)) {
        String v = LogChecker.value("after", next.state().committed().writerEpoch(), 0);
        expected.put(v, next.append(LogRecord.of(1_000_000, v)).lsn());
        next.flush();
      }
      LogChecker.check(LogChecker.scan(log, 0), expected);
      LogChecker.verifyTree(log, store, 0);
      return hadLog;
    }
  }
}
