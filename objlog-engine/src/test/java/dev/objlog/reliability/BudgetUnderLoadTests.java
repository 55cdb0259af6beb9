package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Objlog;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.testing.Await;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory budget holds under load (issue 16): a child JVM with {@code -Xmx256m} writes 64
 * partitions over 4 streams with every upload held back by a gate and readers replaying at the
 * same time ({@link BudgetUnderLoadChild}). At the fullest point, with every writer refused more,
 * the heap after GC stays within the budget plus 64 MiB; nothing runs out of memory; and once the
 * gate opens every acknowledged record reads back from the bucket, byte for byte.
 */
class BudgetUnderLoadTests {
  private static final long SLACK = 64L << 20;

  @TempDir Path dir;

  @Test
  void sixtyFourGatedWritersAndReplayingReadersStayWithinTheBudgetAndLoseNoAcknowledgedRecord()
      throws Exception {
    List<Long[]> acked = new ArrayList<>();
    try (ChildJvm child = new ChildJvm(List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"),
        BudgetUnderLoadChild.class, dir.toString())) {
      Await.until("the child's fullest point: " + child.lines, () -> line(child, "full ").isPresent()
          || line(child, "error").isPresent() || !child.process.isAlive());
      assertThat(line(child, "error")).as("child output %s", child.lines).isEmpty();
      long budget = Long.parseLong(line(child, "budget ").orElseThrow().split(" ")[1]);
      String[] full = line(child, "full ").orElseThrow(() -> new AssertionError(child.tail())).split(" ");
      long heap = Long.parseLong(full[1]);
      long held = Long.parseLong(full[2]);
      System.out.printf("budget %.1f MiB, held by writers %.1f MiB, heap after GC %.1f MiB%n",
          budget / 1048576.0, held / 1048576.0, heap / 1048576.0);
      assertThat(held).isLessThanOrEqualTo(budget);
      assertThat(heap).as("heap after GC at the fullest point, budget %d", budget)
          .isLessThanOrEqualTo(budget + SLACK);

      child.process.getOutputStream().write("open\n".getBytes(UTF_8));
      child.process.getOutputStream().flush();
      assertThat(child.await(90)).as("exit of the child: %s", child.tail()).isZero();
      assertThat(child.lines).noneMatch(l -> l.contains("OutOfMemoryError") || l.startsWith("error"));
      assertThat(child.lines).contains("done");
      for (String l : child.lines) {
        if (l.startsWith("acked ")) {
          String[] f = l.split(" ");
          acked.add(new Long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])});
        }
      }
    }
    assertThat(acked).hasSize(BudgetUnderLoadChild.STREAMS * BudgetUnderLoadChild.PARTITIONS);
    try (FilesystemObjectStore store = FilesystemObjectStore.open(dir)) {
      for (int s = 0; s < BudgetUnderLoadChild.STREAMS; s++) {
        try (Objlog log = Objlog.open(store, BudgetUnderLoadChild.stream(s))) {
          LogReader reader = log.reader();
          for (Long[] a : acked) {
            if (a[0] == s) {
              assertEveryRecordReads(reader, s, a[1].intValue(), a[2]);
            }
          }
        }
      }
    }
  }

  private static void assertEveryRecordReads(LogReader reader, int stream, int partition, long acked) {
    assertThat(acked).isGreaterThan(BudgetUnderLoadChild.FIRST_ROUND);
    long lsn = 0;
    try (Stream<ReadRecord> replay = reader.partition(partition).replay(0)) {
      for (Iterator<ReadRecord> it = replay.iterator(); it.hasNext(); lsn++) {
        ReadRecord r = it.next();
        assertThat(r.lsn()).isEqualTo(lsn);
        assertThat(r.valueBytes()).as("stream %d partition %d LSN %d", stream, partition, lsn)
            .isEqualTo(BudgetUnderLoadChild.value(stream, partition, lsn));
      }
    }
    assertThat(lsn).as("records of stream %d partition %d", stream, partition).isEqualTo(acked);
  }

  private static Optional<String> line(ChildJvm child, String prefix) {
    return child.lines.stream().filter(l -> l.startsWith(prefix)).findFirst();
  }
}
