package dev.objlog.benchmarks;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The writer of P6's other-process run, started by the harness as a child JVM: appends one record
 * every {@code gapMs} to partition 0 of a stream on a filesystem store, each its own segment, and
 * prints {@code c LSN MICROS} when a record is committed (wall clock, comparable with the parent's
 * on the same machine).
 *
 * <pre>
 * TailWriterProcess DIR STREAM RECORDS GAP_MS
 * </pre>
 *
 * <p>Protocol on stdout: {@code ready NEXT_LSN} once the writer is open, then it waits for a line
 * on stdin before appending, then the commit lines, then {@code done}.
 */
public final class TailWriterProcess {
  private TailWriterProcess() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    String stream = args[1];
    int records = Integer.parseInt(args[2]);
    int gapMs = Integer.parseInt(args[3]);
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    byte[] value = new byte[256];
    try (Objlog log = Objlog.open(FilesystemObjectStore.open(dir), stream)) {
      WriterOptions o = WriterOptions.builder().batch(Duration.ofMillis(1), 64L << 20, 16_384).build();
      try (PartitionWriter w = log.openWriter(0, o)) {
        w.flush();
        out.println("ready " + w.state().nextLsn());
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        for (int i = 0; i < records; i++) {
          AppendResult appended = w.append(LogRecord.of(System.currentTimeMillis(), value));
          appended.committed().thenRun(() -> out.println("c " + appended.lsn() + " " + micros()));
          Thread.sleep(gapMs);
        }
        w.flush();
      }
    }
    out.println("done");
  }

  static long micros() {
    Instant now = Instant.now();
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }
}
