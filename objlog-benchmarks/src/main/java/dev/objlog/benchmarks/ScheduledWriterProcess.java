package dev.objlog.benchmarks;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The writer of P10X, started by the harness as a child JVM: appends {@code RECORDS} records to
 * partition 0 of a stream on a filesystem store with the default writer options (as {@code
 * ObjlogTemplate} uses them), record {@code i} at its scheduled time {@code t0 + i / RATE}
 * (spinning until then; a late append is sent at once and its delay counts). Each value carries
 * its index in its first 8 bytes.
 *
 * <pre>
 * ScheduledWriterProcess DIR STREAM RATE RECORDS VALUE_BYTES
 * </pre>
 *
 * <p>Protocol on stdout: {@code ready NEXT_LSN} once the writer is open; it then waits for a line on
 * stdin, prints {@code t0 MICROS} (wall clock, comparable with the parent's on the same machine),
 * appends, flushes, prints {@code c INDEX MICROS} for each record (when its commit completed) and
 * {@code done}.
 */
public final class ScheduledWriterProcess {
  private ScheduledWriterProcess() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    String stream = args[1];
    int rate = Integer.parseInt(args[2]);
    int records = Integer.parseInt(args[3]);
    int valueBytes = Integer.parseInt(args[4]);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    byte[] pool = Data.textPool(4 << 20, 20261203L);
    byte[][] values = new byte[records][];
    for (int i = 0; i < records; i++) {
      values[i] = Data.indexedValue(pool, i, valueBytes);
    }
    long[] committed = new long[records];
    try (Objlog log = Objlog.open(FilesystemObjectStore.open(dir), stream);
        PartitionWriter w = log.openWriter(0)) {
      w.flush();
      out.println("ready " + w.state().nextLsn());
      new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
      long gap = 1_000_000_000L / rate;
      long t0 = System.nanoTime() + 5_000_000;
      long t0Micros = TailWriterProcess.micros() + 5_000;
      out.println("t0 " + t0Micros);
      for (int i = 0; i < records; i++) {
        long at = t0 + i * gap;
        while (System.nanoTime() < at) {
          Thread.onSpinWait();
        }
        int k = i;
        w.append(LogRecord.of(System.currentTimeMillis(), values[i])).committed()
            .thenRun(() -> committed[k] = TailWriterProcess.micros());
      }
      w.flush();
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < records; i++) {
      b.append("c ").append(i).append(' ').append(committed[i]).append('\n');
    }
    out.print(b);
    out.println("done");
  }
}
