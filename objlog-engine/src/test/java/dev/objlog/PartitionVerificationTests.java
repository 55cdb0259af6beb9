package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.PartitionVerification.Outcome;
import dev.objlog.PartitionVerification.ProblemKind;
import dev.objlog.PartitionVerification.Progress;
import dev.objlog.store.CasResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Objlog#verifyPartition}: a healthy multi-level tree passes with every page and segment
 * counted; each kind of damage made on purpose in the bucket (a missing segment, a segment whose
 * bytes changed, a damaged page) is reported with its key and kind; it reads only; and it keeps to
 * its request rate on virtual time.
 */
class PartitionVerificationTests {
  private static final String STREAM = "verify/orders";
  private static final int SEGMENTS = 17;

  private final MemoryObjectStore store = new MemoryObjectStore();

  /** 17 one-record segments with catalog fan-out 2: sealed pages on three levels. */
  private static void writeSegments(Objlog log) throws Exception {
    try (PartitionWriter writer =
        log.openWriter(0, WriterOptions.builder().batch(Duration.ofHours(1), 64L << 20, 1).build())) {
      for (int i = 0; i < SEGMENTS; i++) {
        writer.append(LogRecord.of(i, "r" + i)).committed().get(30, TimeUnit.SECONDS);
      }
    }
  }

  private Objlog open() {
    return Objlog.open(store, STREAM, ObjlogOptions.builder().catalogLimits(2, 2).build());
  }

  private static VerifyOptions unlimited() {
    return VerifyOptions.defaults().withMaxRequestsPerSecond(0);
  }

  private List<String> keys(String suffix) {
    return store.list("", 10_000).entries().stream()
        .map(e -> e.key())
        .filter(k -> k.endsWith(suffix))
        .toList();
  }

  private void overwrite(String key, byte[] bytes) {
    StoredObject current = store.get(key);
    assertThat(store.compareAndSwap(key, current.metadata().token(), bytes)).isInstanceOf(CasResult.Swapped.class);
  }

  @Test
  void aHealthyTreePassesWithEveryPageAndSegmentCountedAndProgressReported() throws Exception {
    try (Objlog log = open()) {
      writeSegments(log);
      List<Progress> progress = new ArrayList<>();
      PartitionVerification result =
          log.verifyPartition(0, unlimited().withSegmentHashes(true).withProgress(progress::add));

      assertThat(result.outcome()).isEqualTo(Outcome.OK);
      assertThat(result.ok()).isTrue();
      assertThat(result.problems()).isEmpty();
      assertThat(result.nextLsn()).isEqualTo(SEGMENTS);
      assertThat(result.segments()).isEqualTo(SEGMENTS);
      assertThat(result.segmentsChecked()).isEqualTo(SEGMENTS);
      assertThat(result.segmentHashesChecked()).isTrue();
      assertThat(result.leafPages() + result.indexPages()).isEqualTo(keys(".plc").size() - 1);
      assertThat(result.indexPages()).isPositive();
      assertThat(progress).last().satisfies(p -> {
        assertThat(p.segmentsChecked()).isEqualTo(SEGMENTS);
        assertThat(p.segmentsTotal()).isEqualTo(SEGMENTS);
        assertThat(p.pagesChecked()).isEqualTo(result.leafPages() + result.indexPages());
        assertThat(p.requests()).isEqualTo(result.requests());
      });
      assertThat(progress).extracting(Progress::segmentsChecked).isSorted();
    }
  }

  @Test
  void aMissingSegmentIsReportedByKeyAndTheRestAreStillChecked() throws Exception {
    try (Objlog log = open()) {
      writeSegments(log);
      String gone = keys(".plseg").get(3);
      store.delete(List.of(gone));

      PartitionVerification result = log.verifyPartition(0, unlimited());

      assertThat(result.outcome()).isEqualTo(Outcome.CORRUPT);
      assertThat(result.problemCount()).isEqualTo(1);
      assertThat(result.problems()).singleElement().satisfies(p -> {
        assertThat(p.kind()).isEqualTo(ProblemKind.SEGMENT_MISSING);
        assertThat(p.key()).isEqualTo(gone);
      });
      assertThat(result.segmentsChecked()).isEqualTo(SEGMENTS);
    }
  }

  @Test
  void changedSegmentBytesOfTheSameSizeAreFoundOnlyWithHashes() throws Exception {
    try (Objlog log = open()) {
      writeSegments(log);
      String damaged = keys(".plseg").get(5);
      byte[] bytes = store.get(damaged).bytes();
      bytes[70] ^= 0x10; // inside the first block, past the 64-byte preamble
      overwrite(damaged, bytes);

      assertThat(log.verifyPartition(0, unlimited()).outcome()).isEqualTo(Outcome.OK);

      PartitionVerification hashed = log.verifyPartition(0, unlimited().withSegmentHashes(true));
      assertThat(hashed.outcome()).isEqualTo(Outcome.CORRUPT);
      assertThat(hashed.problems()).singleElement().satisfies(p -> {
        assertThat(p.kind()).isEqualTo(ProblemKind.SEGMENT_CORRUPT);
        assertThat(p.key()).isEqualTo(damaged);
        assertThat(p.detail()).contains("segment_hash");
      });
    }
  }

  @Test
  void aDamagedCatalogPageIsReportedAndStopsTheWalk() throws Exception {
    try (Objlog log = open()) {
      writeSegments(log);
      String page = keys(".plc").stream().filter(k -> !k.endsWith("head.plc")).findFirst().orElseThrow();
      byte[] bytes = store.get(page).bytes();
      bytes[bytes.length / 2] ^= 0x01;
      overwrite(page, bytes);

      PartitionVerification result = log.verifyPartition(0, unlimited());

      assertThat(result.outcome()).isEqualTo(Outcome.CORRUPT);
      assertThat(result.problems()).singleElement().satisfies(p -> {
        assertThat(p.kind()).isEqualTo(ProblemKind.CATALOG);
        assertThat(p.detail()).contains(page);
      });
      assertThat(result.segmentsChecked()).isZero();
    }
  }

  @Test
  void aPartitionWithoutAHeadHasNothingToCheck() {
    try (Objlog log = open()) {
      PartitionVerification result = log.verifyPartition(3, unlimited());
      assertThat(result.outcome()).isEqualTo(Outcome.NO_PARTITION);
      assertThat(result.ok()).isTrue();
      assertThat(result.requests()).isEqualTo(1);
    }
  }

  @Test
  void verificationNeverWritesAndLeavesTheBucketAsItWas() throws Exception {
    try (Objlog log = open()) {
      writeSegments(log);
      List<String> before = keys("");
      List<byte[]> bodies = before.stream().map(k -> store.get(k).bytes()).toList();
      log.verifyPartition(0, unlimited().withSegmentHashes(true));
      assertThat(keys("")).isEqualTo(before);
      for (int i = 0; i < before.size(); i++) {
        assertThat(store.get(before.get(i)).bytes()).as(before.get(i)).isEqualTo(bodies.get(i));
      }
    }
  }

  @Test
  void requestsAreSpacedToTheConfiguredRateOnVirtualTime() throws Exception {
    MutableTicker ticker = new MutableTicker();
    ObjlogOptions options =
        ObjlogOptions.builder().catalogLimits(2, 2).ticker(ticker).sleeper(ticker::advance).build();
    try (Objlog log = Objlog.open((ObjectStore) store, STREAM, options)) {
      writeSegments(log);
      long start = ticker.read();
      PartitionVerification result = log.verifyPartition(0, VerifyOptions.defaults().withMaxRequestsPerSecond(10));
      long elapsed = ticker.read() - start;
      assertThat(result.requests()).isGreaterThan(SEGMENTS);
      // 10 per second: each request after the first waits its 100 ms slot.
      assertThat(elapsed).isEqualTo((result.requests() - 1) * 100_000_000L);
    }
  }
}
