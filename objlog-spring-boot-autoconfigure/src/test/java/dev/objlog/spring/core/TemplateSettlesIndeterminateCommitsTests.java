package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.CommitUndecidableException;
import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.ObjlogOptions;
import dev.objlog.WriterOptions;
import dev.objlog.read.Freshness;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReaderOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import dev.objlog.coordination.LeaseId;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The template settles sends whose commit ended indeterminate (docs/SPRING.md, "What a send's
 * future means"): it takes the partition over, asks the log which records landed, and sends the
 * others again in order, so every record is in the log once; when it cannot decide, the future
 * fails with {@link CommitIndeterminateException}.
 */
class TemplateSettlesIndeterminateCommitsTests {
  /** Manual cuts: a send is committed by flush, so each test decides which sends share a publish. */
  private static final WriterOptions MANUAL =
      WriterOptions.builder().batch(Duration.ZERO, 1L << 20, 1000).build();

  private final MutableClock clock = new MutableClock(1_700_000_000_000L);
  private final MemoryObjectStore memory = new MemoryObjectStore();
  private final IndeterminatePublishStore store = new IndeterminatePublishStore(memory);
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
  }

  /** A segment per record, each published as soon as it is uploaded. */
  private static final WriterOptions ONE_PER_SEGMENT =
      WriterOptions.builder().batch(Duration.ZERO, 1L << 20, 1).build();

  private final HeadSwapGate gate = new HeadSwapGate(store);

  private ObjlogTemplate template() {
    return template(store, MANUAL, false, null);
  }

  private ObjlogTemplate template(ObjectStore through, WriterOptions options, boolean reopenAfterFenceLoss,
      ExecutorService settler) {
    ObjlogStreams streams = new ObjlogStreams(through, List.of(new ObjlogStream("orders", "shop/orders", 1)),
        ObjlogOptions.defaults(), ReaderOptions.defaults());
    closeables.add(streams);
    Map<String, StreamWriterSettings> settings =
        Map.of("orders", new StreamWriterSettings(PartitionSet.parse("*", 1), options, reopenAfterFenceLoss));
    ObjlogTemplate template = settler == null
        ? new ObjlogTemplate(streams, settings, new DefaultRecordValueConverter(null), clock, new StoreActivity(clock))
        : new ObjlogTemplate(streams, settings, new DefaultRecordValueConverter(null), clock, new StoreActivity(clock),
            null, settler);
    closeables.add(template);
    return template;
  }

  private List<String> values() {
    try (Objlog log = Objlog.open(memory, "shop/orders")) {
      return log.reader().partition(0).read(0, 100, Freshness.LATEST).records().stream()
          .map(ReadRecord::valueAsString).toList();
    }
  }

  private static SendResult await(CompletableFuture<SendResult> future) throws Exception {
    return future.get(30, TimeUnit.SECONDS);
  }

  private static Throwable failureOf(CompletableFuture<SendResult> future) throws Exception {
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    throw new AssertionError("the send succeeded");
  }

  /** Sends "a" cleanly, then {@code values} in one publish that the store makes indeterminate. */
  private List<CompletableFuture<SendResult>> sendIndeterminate(ObjlogTemplate template, int publishes,
      boolean lands, String... values) throws Exception {
    template.send("orders", 0, "a");
    template.flush();
    store.failPublishes(publishes, lands);
    List<CompletableFuture<SendResult>> sent = new ArrayList<>();
    for (String v : values) {
      sent.add(template.send("orders", 0, v));
    }
    template.flush();
    return sent;
  }

  @Test
  void sendsWhoseIndeterminateCommitLandedCompleteWithoutBeingSentAgain() throws Exception {
    ObjlogTemplate template = template();
    List<CompletableFuture<SendResult>> sent = sendIndeterminate(template, 1, true, "b", "c");
    assertThat(await(sent.get(0)).lsn()).isEqualTo(1);
    assertThat(await(sent.get(1)).lsn()).isEqualTo(2);
    assertThat(await(sent.get(1)).committed().nextLsn()).isGreaterThan(2);
    assertThat(store.indeterminatePublishes).as("the fault struck").hasValue(1);
    assertThat(values()).containsExactly("a", "b", "c");
    assertThat(template.writerStatus("orders", 0).opens()).as("settled by a takeover").isEqualTo(2);
  }

  @Test
  void sendsWhoseIndeterminateCommitDidNotLandAreSentAgainInOrderBeforeLaterSends() throws Exception {
    ObjlogTemplate template = template();
    List<CompletableFuture<SendResult>> sent = sendIndeterminate(template, 1, false, "b", "c");
    CompletableFuture<SendResult> later = template.send("orders", 0, "d");
    template.flush();
    assertThat(await(sent.get(0)).lsn()).isEqualTo(1);
    assertThat(await(sent.get(1)).lsn()).isEqualTo(2);
    assertThat(await(later).lsn()).isEqualTo(3);
    assertThat(store.indeterminatePublishes).hasValue(1);
    assertThat(values()).as("each record once, in send order").containsExactly("a", "b", "c", "d");
  }

  @Test
  void aRecordIsSentAgainAtMostMaxResendsTimesThenItsFutureSaysItWasNotCommitted() throws Exception {
    ObjlogTemplate template = template();
    List<CompletableFuture<SendResult>> sent =
        sendIndeterminate(template, ObjlogTemplate.MAX_RESENDS + 1, false, "b");
    Throwable failure = failureOf(sent.get(0));
    assertThat(failure).isExactlyInstanceOf(ObjlogException.class).hasMessageContaining("was not committed");
    assertThat(store.indeterminatePublishes).hasValue(ObjlogTemplate.MAX_RESENDS + 1);
    assertThat(values()).containsExactly("a");

    CompletableFuture<SendResult> next = template.send("orders", 0, "e");
    template.flush();
    assertThat(await(next).lsn()).as("the partition is written again").isEqualTo(1);
  }

  @Test
  void whenTheAnswerCannotBeHadTheFutureFailsIndeterminateAndSaysWhy() throws Exception {
    ObjlogTemplate template = template();
    store.keepHeadReadsDown();
    List<CompletableFuture<SendResult>> sent = sendIndeterminate(template, 1, true, "b");
    assertThat(failureOf(sent.get(0)))
        .isInstanceOf(CommitIndeterminateException.class)
        .hasMessageContaining("re-opening the writer to settle it failed");
    store.heal();
    assertThat(values()).as("the swap did land").containsExactly("a", "b");
  }

  @Test
  void withWriterLeasesAPartitionWhoseLeaseWasLostIsNotTakenBackToSettleASend() throws Exception {
    MutableClock leaseClock = new MutableClock(1_700_000_000_000L);
    InMemoryCheckpointRepository repository = new InMemoryCheckpointRepository(leaseClock);
    Duration ttl = Duration.ofMinutes(1);
    ObjlogStreams streams = new ObjlogStreams(store, List.of(new ObjlogStream("orders", "shop/orders", 1)),
        ObjlogOptions.defaults(), ReaderOptions.defaults());
    closeables.add(streams);
    ObjlogTemplate template = new ObjlogTemplate(streams,
        Map.of("orders", new StreamWriterSettings(PartitionSet.all(1), MANUAL, false,
            new WriterLeaseSettings(ttl, Duration.ofMillis(20)))),
        new DefaultRecordValueConverter(null), clock, new StoreActivity(clock),
        repository.leaseStore());
    closeables.add(template);
    awaitTrue(() -> template.writablePartitions("orders").isAll());
    template.send("orders", 0, "a");
    template.flush();
    long epoch = streams.log("orders").head(0).orElseThrow().writerEpoch();

    store.failPublishes(1, true);
    CompletableFuture<SendResult> b = template.send("orders", 0, "b"); // waits in the batch (manual cuts)
    // The template stalls past its ttl and another instance takes the lease: giving the partition
    // up closes its writer, whose last publish then ends indeterminate.
    LeaseId key = LeaseId.ofWriters(LeaseId.Role.PARTITION, "orders", 0);
    do {
      leaseClock.advance(ttl.toMillis() + 1);
    } while (!repository.leaseStore().tryAcquire(key, "other-instance", ttl).granted());

    assertThat(failureOf(b))
        .as("not decidable before the lease holder takes the partition over, and not taken back here")
        .isInstanceOfSatisfying(CommitUndecidableException.class, e ->
            assertThat(e.reason()).isEqualTo(CommitUndecidableException.Reason.NOT_TAKEN_OVER));
    assertThat(store.indeterminatePublishes).hasValue(1);
    assertThat(template.writerStatus("orders", 0).opens()).as("never re-opened").isEqualTo(1);
    assertThat(streams.log("orders").head(0).orElseThrow().writerEpoch()).isEqualTo(epoch);
  }

  @Test
  void aSendArrivingWhileSettlingIsPendingIsAppendedAfterTheSettledSends() throws Exception {
    HeldExecutor settler = new HeldExecutor();
    ObjlogTemplate template = template(gate, ONE_PER_SEGMENT, false, settler);
    await(template.send("orders", 0, "a"));
    gate.awaitUploads(1);
    // c is appended before b's publish fails: sent after the failure, it would wait for the
    // settling instead of handing a task of its own to the settler.
    HeldPublish held = sendBWhosePublishEndsIndeterminateThenC(template, false, r -> { });
    List<CompletableFuture<SendResult>> sent = List.of(held.b(), held.c());
    settler.awaitHeld(2); // both commits ended indeterminate; settling them is handed to the held settler
    assertThat(sent).as("nothing settled yet").noneMatch(CompletableFuture::isDone);

    CompletableFuture<SendResult> later = template.send("orders", 0, "d"); // settles b and c first
    template.flush();
    settler.release();
    assertThat(await(sent.get(0)).lsn()).isEqualTo(1);
    assertThat(await(sent.get(1)).lsn()).isEqualTo(2);
    assertThat(await(later).lsn()).isEqualTo(3);
    assertThat(values()).as("each record once, in send order").containsExactly("a", "b", "c", "d");
  }

  @Test
  void aSendFromACallbackOnASettledFutureIsAppendedOnceAfterTheSettledSends() throws Exception {
    ObjlogTemplate template = template(gate, ONE_PER_SEGMENT, false, null);
    await(template.send("orders", 0, "a"));
    gate.awaitUploads(1);
    CompletableFuture<CompletableFuture<SendResult>> x = new CompletableFuture<>();
    HeldPublish held = sendBWhosePublishEndsIndeterminateThenC(template, true,
        r -> x.complete(template.send("orders", 0, "x")));
    // b landed, c did not: settling completes b, whose callback sends x, and sends c again.
    assertThat(await(held.b()).lsn()).isEqualTo(1);
    assertThat(await(held.c()).lsn()).isEqualTo(2);
    assertThat(await(x.get(30, TimeUnit.SECONDS)).lsn()).isEqualTo(3);
    template.flush();
    assertThat(values()).as("c sent again once, x after it").containsExactly("a", "b", "c", "x");
  }

  @Test
  void aCallbackOnASettledFutureMayFlushWithoutDeadlock() throws Exception {
    ObjlogTemplate template = template(gate, ONE_PER_SEGMENT, false, null);
    await(template.send("orders", 0, "a"));
    gate.awaitUploads(1);
    CompletableFuture<Boolean> flushed = new CompletableFuture<>();
    AtomicReference<HeldPublish> sent = new AtomicReference<>();
    HeldPublish held = sendBWhosePublishEndsIndeterminateThenC(template, true, r -> {
      template.flush();
      flushed.complete(sent.get().c().isDone());
    });
    sent.set(held);
    assertThat(await(held.b()).lsn()).isEqualTo(1);
    assertThat(flushed.get(30, TimeUnit.SECONDS)).as("the flush in b's callback returned once c was settled").isTrue();
    assertThat(values()).containsExactly("a", "b", "c");
  }

  /** b, whose publish was held at the gate, and c, sent meanwhile into a segment of its own. */
  private record HeldPublish(CompletableFuture<SendResult> b, CompletableFuture<SendResult> c) {}

  /**
   * Sends b with {@code callback} on its future and holds its publish; sends c and lets its
   * segment be uploaded, so it waits behind b's publish; then
   * lets b's swap go on with its answer lost (landed or not, as {@code lands} says), which ends
   * both commits indeterminate.
   */
  private HeldPublish sendBWhosePublishEndsIndeterminateThenC(ObjlogTemplate template, boolean lands,
      Consumer<SendResult> callback) throws Exception {
    store.failPublishes(1, lands);
    gate.holdNextHeadSwap();
    CompletableFuture<SendResult> b = template.send("orders", 0, "b");
    b.thenAccept(callback);
    gate.awaitHeld();
    gate.awaitUploads(1); // b's
    CompletableFuture<SendResult> c = template.send("orders", 0, "c");
    gate.awaitUploads(1); // c's: it waits behind b's publish
    gate.pass();
    return new HeldPublish(b, c);
  }

  @Test
  void anIndeterminateSendIsSettledAlsoWhenItsWriterFailedOtherwiseFirst() throws Exception {
    ObjlogTemplate template = template(gate, ONE_PER_SEGMENT, false, null);
    await(template.send("orders", 0, "a"));
    store.failPublishes(1, true);
    gate.holdNextHeadSwap();
    CompletableFuture<SendResult> b = template.send("orders", 0, "b");
    gate.awaitHeld();
    gate.failUploads = true;
    CompletableFuture<SendResult> c = template.send("orders", 0, "c");
    assertThat(failureOf(c)).as("c's upload failed the writer first").isNotInstanceOf(CommitIndeterminateException.class);
    gate.failUploads = false;
    gate.pass(); // b's swap lands, its answer is lost
    assertThat(await(b).lsn()).as("b is in the log, and its future says so").isEqualTo(1);
    template.flush();
    assertThat(store.indeterminatePublishes).hasValue(1);
    assertThat(values()).containsExactly("a", "b");
  }

  private static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 30s").isLessThan(deadline);
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
