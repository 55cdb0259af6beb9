package dev.objlog.sample;

import dev.objlog.LsnExpiredException;
import dev.objlog.PartitionHead;
import dev.objlog.RetentionRequest;
import dev.objlog.RetentionResult;
import dev.objlog.lifecycle.ReclaimResult;
import dev.objlog.read.Cursor;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.read.Freshness;
import dev.objlog.read.LogReader;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.Tailer;
import dev.objlog.read.Watch;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.SendResult;
import dev.objlog.spring.lifecycle.ObjlogLifecycleProperties;
import dev.objlog.spring.lifecycle.ObjlogMaintenance;
import dev.objlog.store.ObjectStore;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.springframework.aot.hint.annotation.RegisterReflectionForBinding;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/**
 * The narrated demo: writes through the {@link ObjlogTemplate}, reads by LSN, by timestamp and
 * exactly, resumes a cursor from its checkpoint, tails a partition while another thread appends,
 * trims it with retention and reclaims the trimmed objects after the (short, in the sample) delete
 * delay, and prints what the bucket holds after each phase. Runs once at startup unless {@code
 * objlog.demo.enabled=false}.
 *
 * <p>The orders it sends are written as JSON by reflection, so a native image needs binding hints
 * for them: objlog registers those for {@code @ObjlogListener} payloads, but what an application
 * sends through the template is the application's to declare (docs/SPRING.md, "AOT and native
 * images").
 */
@Component
@RegisterReflectionForBinding(ObjlogDemo.DemoOrder.class)
@ConditionalOnBooleanProperty(name = "objlog.demo.enabled", matchIfMissing = true)
class ObjlogDemo implements ApplicationRunner {
  static final String SUMMARY_TITLE = "== objlog demo summary ==";

  /** Longest delete delay the reclaim phase waits out. */
  private static final Duration MAX_DEMO_DELETE_DELAY = Duration.ofSeconds(10);

  /** The value the write phase sends, as JSON through the application's JsonMapper. */
  record DemoOrder(int order, String customer, long amountCents) {}

  private final ObjlogStreams streams;
  private final ObjlogTemplate template;
  private final ObjlogMaintenance maintenance;
  private final Duration deleteDelay;
  private final DemoProperties demo;
  private final String prefix;
  private final PrintStream out = System.out;
  private final Map<String, BucketSummary> phases = new LinkedHashMap<>();

  ObjlogDemo(ObjlogStreams streams, ObjlogTemplate template, ObjlogMaintenance maintenance, DemoProperties demo,
      ObjlogProperties properties, ObjlogLifecycleProperties lifecycle) {
    this.streams = streams;
    this.template = template;
    this.maintenance = maintenance;
    this.deleteDelay = lifecycle.getDeleteDelay();
    this.demo = demo;
    this.prefix = properties.getStore().getPrefix();
  }

  @Override
  public void run(ApplicationArguments args) throws Exception {
    String name = demo.getStream();
    ObjlogStream stream = streams.stream(name);
    if (stream.partitions() < 2) {
      throw new IllegalStateException("the demo needs a stream of at least 2 partitions; objlog.streams." + name
          + ".partitions is " + stream.partitions());
    }
    ObjectStore store = streams.store();
    LogReader reader = streams.reader(name);
    say("objlog demo: stream '%s' (stream id \"%s\", %d partitions) in %s", name, stream.streamId(),
        stream.partitions(), store.describe());
    phase("start");

    // 1. Write.
    title("1. Write through ObjlogTemplate: %d orders keyed by customer, each future completes when durable",
        demo.getRecords());
    long[] before = new long[stream.partitions()];
    for (int p = 0; p < before.length; p++) {
      before[p] = reader.head(p).nextLsn();
    }
    long started = System.nanoTime();
    List<CompletableFuture<SendResult>> sends = new ArrayList<>();
    for (int i = 0; i < demo.getRecords(); i++) {
      String customer = "customer-" + (i % 10);
      sends.add(template.send(name, customer, new DemoOrder(i, customer, 100L * (i % 7 + 1))));
    }
    CompletableFuture.allOf(sends.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
    long millis = (System.nanoTime() - started) / 1_000_000;
    Map<Integer, List<SendResult>> byPartition = new LinkedHashMap<>();
    for (CompletableFuture<SendResult> send : sends) {
      SendResult r = send.join();
      byPartition.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(r);
    }
    say("all %d durable in %d ms", sends.size(), millis);
    byPartition.forEach((p, results) -> say("  partition %d: %d records, LSN %d..%d, committed head %s", p,
        results.size(), results.get(0).lsn(), results.get(results.size() - 1).lsn(), results.get(results.size() - 1).committed()));
    phase("after write");

    int p = byPartition.keySet().iterator().next();
    List<SendResult> written = byPartition.get(p);
    PartitionReader partition = reader.partition(p);

    // 2. Read by LSN.
    title("2. Read partition %d by LSN from %d (3 records)", p, written.get(0).lsn());
    ReadResult byLsn = partition.read(written.get(0).lsn(), 3);
    byLsn.records().forEach(this::print);
    say("next read starts at LSN %d", byLsn.nextLsn());

    // 3. Read by timestamp.
    SendResult middle = written.get(written.size() / 2);
    title("3. Read partition %d from timestamp %s (the first record at or after it)", p,
        Instant.ofEpochMilli(middle.timestampMs()));
    partition.readFromTimestamp(middle.timestampMs(), 1).records().forEach(this::print);

    // 4. Exact fetch.
    title("4. Fetch exactly LSN %d of partition %d", middle.lsn(), p);
    partition.fetch(middle.lsn()).ifPresentOrElse(this::print, () -> say("(missing!)"));

    // 5. Cursor, checkpoint, resume.
    title("5. A cursor reads 5 records, checkpoints, and a new cursor resumes from the checkpoint JSON");
    String json;
    try (Cursor cursor = partition.cursor(written.get(0).lsn(), 5)) {
      ReadResult first = cursor.next();
      say("first cursor read LSN %d..%d", first.records().get(0).lsn(), first.nextLsn() - 1);
      json = cursor.checkpoint().toJson();
    }
    say("checkpoint: %s", json);
    try (Cursor resumed = partition.resume(CursorCheckpoint.parse(json), 5)) {
      ReadResult next = resumed.next();
      say("resumed cursor read LSN %d..%d", next.records().get(0).lsn(), next.nextLsn() - 1);
    }
    phase("after reads");

    // 6. Tail while another thread appends.
    int tailed = (p + 1) % stream.partitions();
    int count = 20;
    title("6. Tail partition %d while another thread appends %d records to it", tailed, count);
    long from = reader.head(tailed).nextLsn();
    int received = 0;
    try (Watch watch = reader.watch(tailed); Tailer tailer = watch.tail(tailed, from, 100)) {
      Thread appender = new Thread(() -> {
        for (int i = 0; i < count; i++) {
          template.send(name, tailed, "tail-" + i).join();
          sleep(15);
        }
      }, "objlog-demo-appender");
      appender.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (received < count && System.nanoTime() < deadline) {
        ReadResult batch = tailer.next(Duration.ofSeconds(5));
        if (!batch.isEmpty()) {
          received += batch.records().size();
          ReadRecord last = batch.records().get(batch.records().size() - 1);
          say("tailer woke with %d record(s), up to LSN %d (\"%s\", %d ms after it was sent)", batch.records().size(),
              last.lsn(), last.valueAsString(), System.currentTimeMillis() - last.timestampMs());
        }
      }
      appender.join(TimeUnit.SECONDS.toMillis(30));
    }
    say("tailed %d of %d records", received, count);
    phase("after tail");

    // 7. Retention: request, apply through the template's writer, reads below the floor fail.
    long cut = from + count / 2;
    title("7. Retention: partition %d keeps records from LSN %d on (request, then the writer applies it)", tailed, cut);
    RetentionRequest request = maintenance.requestRetention(name, tailed, cut);
    say("requested: policy version %d, before LSN %d (%s); nothing is unreadable yet", request.policyVersion(),
        request.beforeLsn(), request.outcome());
    RetentionResult applied = maintenance.applyRetention(name, tailed)
        .orElseThrow(() -> new IllegalStateException("this instance has no open writer of partition " + tailed));
    say("applied by this instance's writer: records below LSN %d are no longer readable (retention trims whole"
        + " segments)", applied.oldestLsn());
    long firstOfPartition = byPartition.containsKey(tailed) ? byPartition.get(tailed).get(0).lsn() : from;
    try {
      reader.partition(tailed).read(firstOfPartition, 1, Freshness.LATEST);
      say("reading LSN %d still worked (it is in the floor's segment)", firstOfPartition);
    } catch (LsnExpiredException e) {
      say("reading LSN %d: LsnExpiredException (oldest %d, next %d): a reader restarts from the oldest LSN",
          e.requestedLsn(), e.oldestLsn(), e.nextLsn());
    }
    phase("after retention");

    // 8. Reclaim: after the delete delay, the trimmed objects go.
    title("8. Reclaim partition %d: a pass notes the new floor, a pass after the delete delay (%s) deletes below it",
        tailed, deleteDelay);
    long deletedObjects = 0;
    long deletedBytes = 0;
    if (deleteDelay.compareTo(MAX_DEMO_DELETE_DELAY) > 0) {
      say("skipped: objlog.lifecycle.delete-delay is %s; the sample sets it short to show deletion", deleteDelay);
    } else {
      for (int pass = 1; pass <= 6; pass++) {
        ReclaimResult r = maintenance.reclaim(name, tailed);
        deletedObjects += r.deletedObjects();
        deletedBytes += r.deletedBytes();
        say("reclaim pass %d: safe floor %d, deleted %d objects (%d bytes)%s", pass, r.safeFloorLsn(),
            r.deletedObjects(), r.deletedBytes(), r.hasMore() ? ", more to do" : "");
        if (!r.hasMore() && Long.compareUnsigned(r.safeFloorLsn(), applied.oldestLsn()) >= 0) {
          break;
        }
        if (!r.hasMore()) {
          sleep(deleteDelay.toMillis() + 100);
        }
      }
    }
    say("reclaimed %d objects, %d bytes", deletedObjects, deletedBytes);
    phase("after reclaim");

    // Summary.
    out.println();
    out.println(SUMMARY_TITLE);
    out.printf("%-16s %10s %14s %12s %14s%n", "phase", "objects", "bytes", "+objects", "+bytes");
    BucketSummary previous = null;
    for (Map.Entry<String, BucketSummary> e : phases.entrySet()) {
      BucketSummary s = e.getValue();
      BucketSummary delta = previous == null ? new BucketSummary(0, 0) : s.minus(previous);
      out.printf("%-16s %10d %14d %12d %14d%n", e.getKey(), s.objects(), s.bytes(), delta.objects(), delta.bytes());
      previous = s;
    }
    long readable = 0;
    StringBuilder ranges = new StringBuilder();
    for (int q = 0; q < stream.partitions(); q++) {
      PartitionHead head = reader.head(q);
      readable += head.nextLsn() - head.oldestLsn();
      ranges.append(q == 0 ? "" : ", ").append("p").append(q).append(" [").append(head.oldestLsn()).append(", ")
          .append(head.nextLsn()).append(")");
    }
    out.printf("records written this run: %d%n", sends.size() + count);
    out.printf("records readable in stream '%s': %d (%s)%n", name, readable, ranges);
    out.flush();
  }

  private void phase(String name) {
    BucketSummary summary = BucketSummary.of(streams.store(), prefix);
    phases.put(name, summary);
    say("bucket %s: %s", name, summary);
  }

  private void title(String format, Object... args) {
    out.println();
    out.println("-- " + String.format(format, args));
  }

  private void say(String format, Object... args) {
    out.println("   " + String.format(format, args));
  }

  private void print(ReadRecord record) {
    say("LSN %d  %s  %s", record.lsn(), Instant.ofEpochMilli(record.timestampMs()), record.valueAsString());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
