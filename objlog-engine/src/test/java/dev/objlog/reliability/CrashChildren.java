package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.read.Cursor;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.SplittableRandom;

/** Child JVM entry points of {@link CrashTests}; each prints line-oriented reports to stdout. */
final class CrashChildren {
  private CrashChildren() {}

  static final PrintStream OUT = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, UTF_8);

  static synchronized void say(String line) {
    OUT.println(line);
    OUT.flush();
  }

  /** {@code fs:<root>} or {@code s3:<endpoint>} (bucket "crash"). */
  static ObjectStore open(String target) {
    if (target.startsWith("fs:")) {
      return FilesystemObjectStore.open(Path.of(target.substring(3)));
    }
    return S3ObjectStore.builder().bucket("crash").endpoint(URI.create(target.substring(3))).pathStyle(true)
        .region("us-east-1").credentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
        .retryPolicy(new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(100), 0.5, Duration.ofSeconds(30)))
        .build();
  }

  /**
   * A writer that takes the partition over and appends forever; prints {@code READY <epoch>} and
   * {@code ACK <value> <lsn> .} when a record's durability future completes (the trailing dot
   * proves the line was not cut by the kill). Args: target, stream, name, seed.
   */
  static final class Writer {
    public static void main(String[] args) throws Exception {
      SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
      try (ObjectStore store = open(args[0]); Objlog log = Objlog.open(store, args[1]);
          PartitionWriter w = log.openWriter(0, WriterOptions.builder()
              .batch(Duration.ofMillis(1 + random.nextInt(5)), 1 << 20, 1 + random.nextInt(8)).build())) {
        long epoch = w.state().committed().writerEpoch();
        say("READY " + epoch);
        long ts = 0;
        for (long seq = 0; ; seq++) {
          ts = Math.max(ts, System.currentTimeMillis());
          String v = LogChecker.value(args[2], epoch, seq);
          AppendResult r = w.append(LogRecord.of(ts, v));
          r.committed().thenAccept(h -> say("ACK " + v + " " + r.lsn() + " ."));
          if (random.nextInt(16) == 0) {
            w.flush();
          }
          if (random.nextInt(4) == 0) {
            Thread.sleep(1);
          }
        }
      }
    }
  }

  /**
   * A listener: resumes a cursor from its checkpoint file (or LSN 0), "processes" each record by
   * printing {@code GOT <lsn> .}, then persists the checkpoint atomically after each batch.
   * Args: target, stream, checkpointFile, seed.
   */
  static final class Listener {
    public static void main(String[] args) throws Exception {
      Path file = Path.of(args[2]);
      SplittableRandom random = new SplittableRandom(Long.parseLong(args[3]));
      try (ObjectStore store = open(args[0]); Objlog log = Objlog.open(store, args[1])) {
        PartitionReader reader = log.reader().partition(0);
        Cursor cursor = Files.exists(file)
            ? reader.resume(CursorCheckpoint.parse(Files.readAllBytes(file)), 1 + random.nextInt(20))
            : reader.cursor(0, 1 + random.nextInt(20));
        say("READY " + cursor.position());
        while (true) {
          ReadResult batch = cursor.next();
          if (batch.records().isEmpty()) {
            say("IDLE " + cursor.position());
            Thread.sleep(20);
            continue;
          }
          for (ReadRecord r : batch.records()) {
            say("GOT " + r.lsn() + " .");
            if (random.nextInt(8) == 0) {
              Thread.sleep(1);
            }
          }
          Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
          Files.write(tmp, cursor.checkpoint().toJsonBytes());
          Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
          say("SAVED " + cursor.position() + " .");
        }
      }
    }
  }

  /** S3Proxy in its own process: prints {@code ENDPOINT <uri>}, runs until stdin closes. */
  static final class S3Proxy {
    public static void main(String[] args) throws Exception {
      try (S3ProxyServer server = S3ProxyServer.start(true)) {
        server.createBucket("crash");
        say("ENDPOINT " + server.endpoint());
        while (System.in.read() >= 0) {
          // wait for the parent to close our stdin (or kill us)
        }
      }
    }
  }

  /**
   * S3Proxy over its filesystem backend in {@code args[0]} on port {@code args[1]} (0: ephemeral),
   * with {@link S3ProxyPausePoints}: prints {@code ENDPOINT <uri>}, then reads commands from stdin,
   * {@code ARM <point>} answered by {@code ARMED <point>}.
   */
  static final class S3ProxyOnDisk {
    public static void main(String[] args) throws Exception {
      S3ProxyPausePoints[] points = new S3ProxyPausePoints[1];
      try (S3ProxyServer server = S3ProxyServer.startOnDisk(Path.of(args[0]), Integer.parseInt(args[1]),
          backend -> points[0] = new S3ProxyPausePoints(backend))) {
        server.createBucketIfAbsent("crash");
        say("ENDPOINT " + server.endpoint());
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
          if (line.startsWith("ARM ")) {
            S3ProxyPausePoints.Point point = S3ProxyPausePoints.Point.valueOf(line.substring(4).trim());
            points[0].arm(point);
            say("ARMED " + point);
          }
        }
      }
    }
  }
}
