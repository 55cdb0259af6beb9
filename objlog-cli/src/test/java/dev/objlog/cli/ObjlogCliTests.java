package dev.objlog.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Header;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tool end to end, through {@link ObjlogCli#run} (the jar's main without {@code System.exit}),
 * against a log written by the engine: on the filesystem store and on S3Proxy, configured with the
 * starter's property names from flags and from a file.
 */
class ObjlogCliTests {

  /** What one run printed and returned. */
  record Run(int exit, String out, String err) {}

  static Run cli(List<String> settings, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(settings);
    all.addAll(List.of(args));
    int exit = ObjlogCli.run(new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8), all.toArray(String[]::new));
    return new Run(exit, out.toString(UTF_8), err.toString(UTF_8));
  }

  /** Five records in partition 0 (one segment per two records), none in partition 1. */
  static void writeLog(ObjectStore store, String streamId) throws Exception {
    try (Objlog log = Objlog.open(store, streamId);
        PartitionWriter writer = log.openWriter(0, WriterOptions.builder().batch(Duration.ofHours(1), 1 << 20, 2).build())) {
      List<java.util.concurrent.CompletableFuture<?>> committed = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        LogRecord record = i == 4 ? LogRecord.of(1000 + i, List.of(Header.of("source", "test")), ("order-" + i).getBytes(UTF_8))
            : LogRecord.of(1000 + i, "order-" + i);
        committed.add(writer.append(record).committed());
      }
      writer.flush(); // records 0-1 and 2-3 were cut at two records each; this cuts record 4
      for (var c : committed) {
        c.get(30, TimeUnit.SECONDS);
      }
    }
  }

  /** Every command on one store, given the settings that reach it. */
  abstract static class Commands {
    final String streamId = "cli/" + UUID.randomUUID();
    private ObjectStore store;

    /** The settings that reach the store under test. */
    abstract List<String> settings();

    /** A client of the store under test, for writing the log and damaging it. */
    abstract ObjectStore openStore();

    /** The store with the log written (on first use). */
    ObjectStore store() {
      if (store == null) {
        store = openStore();
        try {
          writeLog(store, streamId);
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      }
      return store;
    }

    void deleteObject(String key) {
      store().delete(List.of(key));
    }

    List<String> streamSettings() {
      store();
      List<String> s = new ArrayList<>(settings());
      s.addAll(List.of("--set", "objlog.streams.orders.stream-id=" + streamId, "--set", "objlog.streams.orders.partitions=2"));
      return s;
    }

    @Test
    void streamsListsEveryPartitionWithItsHead() {
      Run run = cli(streamSettings(), "streams");
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out().lines()).hasSize(2);
      assertThat(run.out().lines().findFirst().orElseThrow())
          .contains("stream=orders", "partition=0", "exists=true", "nextLsn=5", "oldestLsn=0", "segments=3");
      assertThat(run.out().lines().skip(1).findFirst().orElseThrow()).contains("partition=1", "exists=false");

      Run json = cli(streamSettings(), "streams", "--format", "json");
      assertThat(json.out().lines().findFirst().orElseThrow()).contains("\"nextLsn\":\"5\"", "\"stream\":\"orders\"");
    }

    @Test
    void dumpAndTailPrintRecordsAsTextJsonAndRaw() {
      Run text = cli(streamSettings(), "dump", "orders", "0");
      assertThat(text.exit()).as(text.err()).isZero();
      assertThat(text.out().lines()).hasSize(5).first().asString().startsWith("0\t").contains("order-0");
      assertThat(text.out().lines().toList().get(4)).contains("order-4", "source=test");

      Run json = cli(streamSettings(), "dump", "orders", "0", "--from", "3", "--format", "json");
      assertThat(json.out().lines()).hasSize(2);
      assertThat(json.out().lines().toList().get(1))
          .contains("\"lsn\":\"4\"", "\"value\":\"order-4\"", "\"headers\":{\"source\":\"test\"}");

      Run raw = cli(streamSettings(), "dump", "orders", "0", "--limit", "2", "--format", "raw");
      assertThat(raw.out()).isEqualTo("7:order-0,7:order-1,");

      Run tail = cli(streamSettings(), "tail", "orders", "0", "-n", "2");
      assertThat(tail.out().lines()).extracting(l -> l.split("\t")[2]).containsExactly("order-3", "order-4");
    }

    @Test
    void segmentShowsTheNewestSegmentsTrailerAndBlocks() {
      Run run = cli(streamSettings(), "segment", "--stream", "orders", "--partition", "0");
      assertThat(run.exit()).as(run.err()).isZero();
      List<String> lines = run.out().lines().toList();
      assertThat(lines.get(0)).contains("baseLsn=4", "lastLsn=4", "records=1", "blocks=1");
      assertThat(lines).hasSize(2);
      assertThat(lines.get(1)).contains("block=0", "baseLsn=4", "records=1");
    }

    @Test
    void verifyPassesAndThenNamesTheSegmentThatWentMissing() throws Exception {
      Run ok = cli(streamSettings(), "verify", "orders", "0", "--hashes", "--rate", "0");
      assertThat(ok.exit()).as(ok.out() + ok.err()).isZero();
      assertThat(ok.out()).contains("outcome=OK", "segments=3", "segmentsChecked=3", "hashes=true", "problems=0");

      Run segment = cli(streamSettings(), "segment", "--stream", "orders", "--partition", "0", "--format", "json");
      String key = segment.out().lines().findFirst().orElseThrow().replaceAll(".*\"key\":\"([^\"]+)\".*", "$1");
      deleteObject(key);
      Run broken = cli(streamSettings(), "verify", "orders", "0", "--rate", "0");
      assertThat(broken.exit()).isEqualTo(ObjlogCli.PROBLEMS_FOUND);
      assertThat(broken.out()).contains("outcome=CORRUPT", "problem=SEGMENT_MISSING", "key=" + key);
    }

    @Test
    void retentionNeedsAllowWritesAndIsReadOnlyWithout() {
      Run refused = cli(streamSettings(), "retention", "orders", "0", "--before", "2");
      assertThat(refused.exit()).isEqualTo(ObjlogCli.USAGE);
      assertThat(refused.err()).contains("add --allow-writes");
      assertThat(cli(streamSettings(), "streams").exit()).isZero();

      List<String> writable = new ArrayList<>(streamSettings());
      writable.add("--allow-writes");
      Run requested = cli(writable, "retention", "orders", "0", "--before", "2");
      assertThat(requested.exit()).as(requested.err()).isZero();
      assertThat(requested.out()).contains("policyVersion=1", "beforeLsn=2", "outcome=CREATED");
      Run again = cli(writable, "retention", "orders", "0", "--before", "4");
      assertThat(again.out()).contains("policyVersion=2", "beforeLsn=4");
    }

    @Test
    void anUnknownStreamOrPartitionSaysWhatIsConfigured() {
      Run unknown = cli(streamSettings(), "dump", "payments", "0");
      assertThat(unknown.exit()).isEqualTo(ObjlogCli.USAGE);
      assertThat(unknown.err()).contains("no stream named 'payments'", "[orders]");
      Run partition = cli(streamSettings(), "dump", "orders", "7");
      assertThat(partition.err()).contains("partitions 0..1");
    }
  }

  @Nested
  class OnTheFilesystemStore extends Commands {
    @TempDir Path root;

    @Override
    List<String> settings() {
      return List.of("--set", "objlog.store.type=filesystem", "--set", "objlog.store.filesystem.root=" + root);
    }

    @Override
    ObjectStore openStore() {
      return FilesystemObjectStore.open(root);
    }

    @Test
    void settingsCanComeFromAFileAsAnApplicationWouldHaveThem() throws Exception {
      store();
      Path config = root.resolveSibling(root.getFileName() + "-objlog.properties");
      Files.writeString(config, String.join("\n",
          "objlog.store.type=filesystem",
          "objlog.store.filesystem.root=" + root.toString().replace("\\", "\\\\"),
          "objlog.streams.orders.stream-id=" + streamId,
          "objlog.streams.orders.partitions=2"));
      Run run = cli(List.of("--config", config.toString()), "streams");
      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).contains("nextLsn=5");
      Files.delete(config);
    }

    /** The runbook's "restoring from a bucket copy": a copy of every object is the same log. */
    @Test
    void aCopyOfTheBucketVerifiesAndReadsLikeTheOriginal(@TempDir Path copy) throws Exception {
      store();
      try (var files = Files.walk(root)) {
        for (Path from : files.toList()) {
          Path to = copy.resolve(root.relativize(from).toString());
          if (Files.isDirectory(from)) {
            Files.createDirectories(to);
          } else {
            Files.copy(from, to);
          }
        }
      }
      List<String> onCopy = new ArrayList<>(List.of("--set", "objlog.store.type=filesystem",
          "--set", "objlog.store.filesystem.root=" + copy,
          "--set", "objlog.streams.orders.stream-id=" + streamId, "--set", "objlog.streams.orders.partitions=2"));
      Run verified = cli(onCopy, "verify", "orders", "0", "--hashes", "--rate", "0");
      assertThat(verified.exit()).as(verified.err()).isZero();
      assertThat(verified.out()).contains("outcome=OK", "nextLsn=5");
      assertThat(cli(onCopy, "dump", "orders", "0").out()).isEqualTo(cli(streamSettings(), "dump", "orders", "0").out());
    }

    @Test
    void aConfigurationTheStarterRefusesFailsWithItsMessage() {
      Run run = cli(List.of("--set", "objlog.store.type=s3"), "streams");
      assertThat(run.exit()).isEqualTo(ObjlogCli.USAGE);
      assertThat(run.err()).contains("objlog.store.bucket", "needs a bucket");
    }
  }

  @Nested
  class OnS3Proxy extends Commands {
    private static final String BUCKET = "objlog-cli";

    @Override
    List<String> settings() {
      return List.of(
          "--set", "objlog.store.type=s3",
          "--set", "objlog.store.bucket=" + BUCKET,
          "--set", "objlog.store.s3.endpoint=" + server.endpoint(),
          "--set", "objlog.store.s3.path-style=true",
          "--set", "objlog.store.s3.access-key=" + S3ProxyServer.ACCESS_KEY,
          "--set", "objlog.store.s3.secret-key=" + S3ProxyServer.SECRET_KEY);
    }

    @Override
    ObjectStore openStore() {
      return S3ObjectStore.builder().bucket(BUCKET).client(server.client()).build();
    }
  }

  static S3ProxyServer server;

  @BeforeAll
  static void startS3Proxy() {
    server = S3ProxyServer.start(true);
    server.createBucket("objlog-cli");
  }

  @AfterAll
  static void stopS3Proxy() {
    if (server != null) {
      server.close();
    }
  }
}
