package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.logOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.LogRecord;
import dev.objlog.MemoryBudget;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.RecordExceedsPendingBudgetException;
import dev.objlog.WriterOptions;
import dev.objlog.store.memory.MemoryObjectStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reservation starvation: writers opened once the reservations of others fill the budget get less
 * than their reservation (possibly nothing) and can never hold a large record. Such a writer warns
 * once when it opens, each refused append says the same, and {@link
 * MemoryBudget#maxRecordBytesWithin} gives the {@code maxRecordBytes} that would fit.
 */
class ReservationStarvationTests {
  /** The engine logs through System.Logger, which is java.util.logging in these tests. */
  private final Logger julLogger = Logger.getLogger(WriterReservation.class.getName());
  private final List<java.util.logging.LogRecord> warnings = new CopyOnWriteArrayList<>();
  private final Handler capture = new Handler() {
    @Override
    public void publish(java.util.logging.LogRecord record) {
      if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
        warnings.add(record);
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeEach
  void captureWarnings() {
    julLogger.addHandler(capture);
  }

  @AfterEach
  void stopCapturing() {
    julLogger.removeHandler(capture);
  }

  private List<String> warningTexts() {
    return warnings.stream().map(java.util.logging.LogRecord::getMessage).toList();
  }

  @Test
  void aWriterGrantedLessThanItsReservationWarnsOnceNamingTheBudgetTheBytesAndWhatToChange() {
    WriterOptions options = WriterFixtures.manualCuts().build();
    long reservation = MemoryBudget.reservationBytes(options);
    long capacity = reservation + reservation / 2;
    MemoryBudget budget = MemoryBudget.ofBytes(capacity);
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/starved", logOptions().memoryBudget(budget).build())) {
      PartitionWriter whole = log.openWriter(1, options);
      assertThat(warningTexts()).as("a writer with its whole reservation is silent").isEmpty();
      PartitionWriter starved = log.openWriter(2, options);
      long granted = capacity - reservation;
      assertThat(budget.reservedBytes()).isEqualTo(capacity);
      int fits = MemoryBudget.maxRecordBytesWithin(options, granted);
      assertThat(fits).isPositive();
      assertThat(warningTexts()).singleElement().asString()
          .contains("stream \"tests/starved\", partition 2")
          .contains("was granted " + granted + " of the " + reservation + " bytes it reserves")
          .contains("memory budget of " + capacity + " bytes")
          .contains("at least " + 2 * reservation + " bytes (ObjlogOptions.memoryBudget; Spring: objlog.memory.budget)")
          .contains("max-record-size) to at most " + fits + " bytes")
          .contains("open fewer writers");
      whole.close();
      starved.close();
    }
  }

  @Test
  void aWriterWithNoReservationLeftRefusesEveryLargeRecordWithTheWarningsText() {
    WriterOptions options = WriterFixtures.manualCuts().build();
    long reservation = MemoryBudget.reservationBytes(options);
    MemoryBudget budget = MemoryBudget.ofBytes(2 * reservation);
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/starved-none",
        logOptions().memoryBudget(budget).build())) {
      log.openWriter(0, options);
      log.openWriter(1, options);
      assertThat(warningTexts()).isEmpty();
      PartitionWriter starved = log.openWriter(2, options);
      String warning = warningTexts().get(0);
      assertThat(warning).contains("was granted 0 of the " + reservation + " bytes")
          .contains("can never hold more than 0 bytes")
          .contains("no maxRecordBytes fits what is left");
      String shortfall = warning.substring(warning.indexOf("was granted"), warning.length() - 1);
      for (int attempt = 0; attempt < 2; attempt++) {
        assertThatThrownBy(() -> starved.append(LogRecord.of(1, "small")))
            .as("every append, not only the first")
            .isInstanceOf(RecordExceedsPendingBudgetException.class)
            .hasMessageContaining(shortfall)
            .hasMessageContaining("split the record");
      }
      assertThat(warningTexts()).as("one warning, at opening").hasSize(1);
    }
  }

  @Test
  void loweringMaxRecordBytesToTheFigureThatFitsGivesTheWriterItsWholeReservation() {
    WriterOptions options = WriterFixtures.manualCuts().build();
    long reservation = MemoryBudget.reservationBytes(options);
    long capacity = reservation + reservation / 2;
    MemoryBudget budget = MemoryBudget.ofBytes(capacity);
    int fits = MemoryBudget.maxRecordBytesWithin(options, capacity - reservation);
    WriterOptions lowered = WriterFixtures.manualCuts()
        .backpressure(options.backpressure().withMaxRecordBytes(fits)).build();
    try (Objlog log = Objlog.open(new MemoryObjectStore(), "tests/starved-lowered",
        logOptions().memoryBudget(budget).build())) {
      log.openWriter(1, options);
      PartitionWriter writer = log.openWriter(2, lowered);
      assertThat(warningTexts()).isEmpty();
      assertThat(budget.reservedBytes()).isEqualTo(reservation + MemoryBudget.reservationBytes(lowered));
      writer.append(LogRecord.of(1, new byte[fits - 16]));
      assertThat(writer.flush().nextLsn()).isEqualTo(1);
    }
  }

  @Test
  void maxRecordBytesWithinIsTheLargestRecordWhoseReservationFits() {
    WriterOptions options = WriterFixtures.manualCuts().build();
    long target = 2 << 20;
    int fits = MemoryBudget.maxRecordBytesWithin(options, target);
    assertThat(MemoryBudget.reservationBytes(withMaxRecord(options, fits))).isLessThanOrEqualTo(target);
    assertThat(MemoryBudget.reservationBytes(withMaxRecord(options, fits + 1))).isGreaterThan(target);
    assertThat(MemoryBudget.maxRecordBytesWithin(options, MemoryBudget.reservationBytes(options)))
        .as("never above the options' own").isEqualTo(options.backpressure().maxRecordBytes());
    assertThat(MemoryBudget.maxRecordBytesWithin(options, Long.MAX_VALUE))
        .isEqualTo(options.backpressure().maxRecordBytes());
    assertThat(MemoryBudget.maxRecordBytesWithin(options, options.pipeline().blockBytes()))
        .as("one block alone is more").isZero();
  }

  @Test
  void theReservationIsTheLargestRecordAsASegmentPlusOneBlockCappedByMaxPendingBytes() {
    WriterOptions options = WriterFixtures.manualCuts().build();
    long expected = dev.objlog.format.segment.SegmentEncoder.worstCaseSegmentSize(1,
        WriterOptions.BackpressurePolicy.FORMAT_MAX_RECORD_BYTES, options.pipeline().blockBytes(),
        options.pipeline().codec()) + options.pipeline().blockBytes();
    assertThat(MemoryBudget.reservationBytes(options)).isEqualTo(expected).isEqualTo(Batcher.reservation(options));
    WriterOptions capped = WriterFixtures.manualCuts()
        .backpressure(new WriterOptions.BackpressurePolicy(4, 1 << 20, false)).build();
    assertThat(MemoryBudget.reservationBytes(capped)).isEqualTo(1 << 20);
  }

  private static WriterOptions withMaxRecord(WriterOptions options, int maxRecordBytes) {
    return WriterFixtures.manualCuts().backpressure(options.backpressure().withMaxRecordBytes(maxRecordBytes)).build();
  }
}
