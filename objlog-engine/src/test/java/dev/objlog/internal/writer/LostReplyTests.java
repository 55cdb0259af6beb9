package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.await;
import static dev.objlog.internal.writer.WriterFixtures.awaitFailure;
import static dev.objlog.internal.writer.WriterFixtures.keys;
import static dev.objlog.internal.writer.WriterFixtures.manualCuts;
import static dev.objlog.internal.writer.WriterFixtures.open;
import static dev.objlog.internal.writer.WriterFixtures.readCommitted;
import static dev.objlog.internal.writer.WriterFixtures.record;
import static dev.objlog.internal.writer.WriterFixtures.segmentObjects;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.CommitIndeterminateException;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterClosedException;
import dev.objlog.internal.writer.WriterFixtures.Committed;
import dev.objlog.internal.writer.WriterFixtures.StoreKind;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore.Fault;
import dev.objlog.store.fault.FaultInjectingObjectStore.FaultRule;
import dev.objlog.store.fault.FaultInjectingObjectStore.Operation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LostReplyTests {
  @TempDir Path dir;

  private FaultInjectingObjectStore faulty(StoreKind kind) {
    return FaultInjectingObjectStore.builder(kind.open(dir)).seed(11).timeout(Duration.ofMillis(1)).build();
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aLostHeadReplyIsReconciledAndEveryRecordCommittedOnce(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind);
    String head = keys(PARTITION).head();
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      writer.append(record(1, "a"));
      writer.flush();
      store.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP), head, Fault.LOST_REPLY, 1));
      AppendResult b = writer.append(record(2, "b"));
      writer.append(record(3, "c"));
      assertThat(writer.flush().nextLsn()).isEqualTo(3);
      assertThat(await(b.committed()).nextLsn()).isEqualTo(3);
      assertThat(store.injectedFaults()).extracting(FaultInjectingObjectStore.InjectedFault::fault)
          .containsExactly(Fault.LOST_REPLY);

      writer.append(record(4, "d"));
      writer.flush();
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactly("a", "b", "c", "d");
      assertThat(segmentObjects(store, PARTITION))
          .as("one object per committed range: nothing was minted twice")
          .hasSize(committed.segments().size());
    }
  }

  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void anUnsettledHeadWriteStopsTheWriterWithoutMintingTheRangeAgain(StoreKind kind) {
    FaultInjectingObjectStore store = faulty(kind);
    String head = keys(PARTITION).head();
    try (Objlog log = open(store)) {
      PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build());
      writer.append(record(1, "a"));
      writer.flush();
      store.addRule(new FaultRule(Set.of(Operation.COMPARE_AND_SWAP), head, Fault.TIMEOUT, 1000));
      store.addRule(new FaultRule(Set.of(Operation.GET), head, Fault.ERROR_BEFORE, 1000));
      AppendResult b = writer.append(record(2, "b"));

      assertThatThrownBy(writer::flush).isInstanceOf(CommitIndeterminateException.class);
      assertThat(awaitFailure(b.committed())).isInstanceOf(CommitIndeterminateException.class);
      assertThat(writer.failure()).containsInstanceOf(CommitIndeterminateException.class);
      assertThatThrownBy(() -> writer.append(record(3, "c")))
          .isInstanceOf(WriterClosedException.class)
          .hasCauseInstanceOf(CommitIndeterminateException.class);
      assertThat(segmentObjects(store, PARTITION)).as("the range of b was minted once").hasSize(2);
      writer.close();

      store.clearRules();
      try (PartitionWriter next = log.openWriter(PARTITION, manualCuts().build())) {
        long resumeAt = next.state().committed().nextLsn();
        assertThat(resumeAt).as("b is either in or out, never half").isIn(1L, 2L);
        next.append(record(3, "c"));
        next.flush();
      }
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).doesNotHaveDuplicates().startsWith("a").endsWith("c");
      assertThat(committed.lsns()).containsExactlyElementsOf(
          java.util.stream.LongStream.range(0, committed.records().size()).boxed().toList());
    }
  }

  /**
   * Found by killing S3Proxy after it stored a segment and before it replied: the adapter's
   * retry answered "already exists" for the writer's own object, and the writer, which compared
   * bytes only after failures it had seen itself, failed with an integrity error.
   */
  @ParameterizedTest
  @EnumSource(StoreKind.class)
  void aSegmentCreateTheAdapterRetriedAfterALostReplyIsRecognisedAsOurOwn(StoreKind kind) {
    GatedStore store = new GatedStore(kind.open(dir));
    try (Objlog log = open(store); PartitionWriter writer = log.openWriter(PARTITION, manualCuts().build())) {
      writer.append(record(1, "a"));
      writer.flush();
      store.repeatNextCompletionAfterALostReply();
      AppendResult b = writer.append(record(2, "b"));
      assertThat(writer.flush().nextLsn()).as("the flush commits the segment whose create was repeated").isEqualTo(2);
      assertThat(await(b.committed()).nextLsn()).isEqualTo(2);
      assertThat(store.repeatedCompletions).as("the lost reply was simulated").hasValue(0);
      assertThat(writer.failure()).as("the writer does not mistake its own segment for a foreign one").isEmpty();

      writer.append(record(3, "c"));
      writer.flush();
      Committed committed = readCommitted(store, PARTITION);
      assertThat(committed.values()).containsExactly("a", "b", "c");
      assertThat(segmentObjects(store, PARTITION)).hasSize(committed.segments().size());
    }
  }
}
