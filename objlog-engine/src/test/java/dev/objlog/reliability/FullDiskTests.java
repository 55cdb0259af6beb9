package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterClosedException;
import dev.objlog.WriterOptions;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk (ENOSPC) under the filesystem store (issue #13), simulated by {@link
 * PowerCutFileSystem}'s byte quota: every write fails with {@code IOException("No space left on
 * device")}. The engine's contract (USAGE.md, "Failures"): a store failure is retried by the
 * writer until {@code timeouts.segmentFinalize}; space that returns inside it lets the same writer
 * go on, with nothing lost; past it the writer fails terminally with the store's {@link
 * TransientStoreException} (saying the disk is full) as the cause, and a new writer on the
 * partition continues the log once space returns. Nothing acknowledged is lost either way.
 */
class FullDiskTests {
  private static final String STREAM = "full/disk";

  @TempDir Path dir;

  private PowerCutFileSystem fs() throws Exception {
    Path disk = dir.resolve("disk");
    Files.createDirectories(disk);
    return new PowerCutFileSystem(disk);
  }

  private static ObjectStore open(PowerCutFileSystem fs) {
    return FilesystemObjectStore.builder(fs.disk().resolve("bucket")).sleeper(d -> {}).build();
  }

  private static void append(PartitionWriter w, String prefix, int n, Map<String, Long> acked, long[] ts) {
    long epoch = w.state().committed().writerEpoch();
    for (int i = 0; i < n; i++) {
      String v = LogChecker.value(prefix, epoch, ts[0]);
      AppendResult r = w.append(LogRecord.of(ts[0]++, v));
      r.committed().thenAccept(h -> acked.put(v, r.lsn()));
    }
  }

  private static void awaitNoSpaceFailures(PowerCutFileSystem fs, int n) throws InterruptedException {
    while (fs.noSpaceFailures() < n) {
      Thread.sleep(2);
    }
  }

  @Test
  @Timeout(120)
  void theWriterWaitsOutAFullDiskAndCommitsOnceSpaceReturns() throws Exception {
    PowerCutFileSystem fs = fs();
    Map<String, Long> acked = new ConcurrentHashMap<>();
    long[] ts = {1_000};
    try (ObjectStore store = open(fs); Objlog log = Objlog.open(store, STREAM);
        PartitionWriter w = log.openWriter(0, WriterOptions.builder().batch(Duration.ZERO, 1 << 20, 1_000).build())) {
      append(w, "w", 3, acked, ts);
      w.flush();
      fs.quota(0);
      append(w, "w", 2, acked, ts);
      CompletableFuture<PartitionHead> flushed = w.flushAsync();
      awaitNoSpaceFailures(fs, 4);
      assertThat(flushed).as("a flush while the disk is full").isNotDone();
      assertThat(w.failure()).as("the writer's failure while it retries").isEmpty();

      fs.quota(Long.MAX_VALUE);
      flushed.get(60, TimeUnit.SECONDS);
      append(w, "w", 2, acked, ts);
      w.flush();
      assertThat(acked).as("acknowledged records").hasSize(7);
      LogChecker.check(LogChecker.scan(log, 0), acked);
      LogChecker.verifyTree(log, store, 0);
    }
  }

  @Test
  @Timeout(120)
  void aDiskFullPastTheDeadlineFailsTheWriterWithATypedErrorAndANewWriterContinues() throws Exception {
    PowerCutFileSystem fs = fs();
    Map<String, Long> acked = new ConcurrentHashMap<>();
    long[] ts = {1_000};
    try (ObjectStore store = open(fs); Objlog log = Objlog.open(store, STREAM)) {
      PartitionWriter w = log.openWriter(0, WriterOptions.builder().batch(Duration.ZERO, 1 << 20, 1_000)
          .timeouts(new WriterOptions.Timeouts(Duration.ofMillis(200), Duration.ofMillis(200))).build());
      append(w, "w", 3, acked, ts);
      w.flush();
      fs.quota(0);
      append(w, "w", 2, acked, ts);
      CompletableFuture<PartitionHead> flushed = w.flushAsync();
      Throwable failure = null;
      try {
        flushed.get(60, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        failure = e.getCause();
      }
      assertThat(failure).as("a flush that cannot write before its deadline fails").isNotNull();
      Throwable cause = failure;
      while (cause != null && !(cause instanceof TransientStoreException)) {
        cause = cause.getCause();
      }
      assertThat(cause).as("the store's typed error in the cause chain of %s", failure)
          .isInstanceOf(TransientStoreException.class);
      assertThat(cause.getMessage()).as("the store's message").contains("disk is full").contains("No space left on device");
      assertThat(w.failure()).as("the writer's terminal failure").isPresent();
      assertThatThrownBy(() -> w.append(LogRecord.of(ts[0]++, "late"))).isInstanceOf(WriterClosedException.class);
      w.abort();

      fs.quota(Long.MAX_VALUE);
      Map<String, Long> expected = new HashMap<>(acked);
      try (PartitionWriter next = log.openWriter(0)) {
        append(next, "next", 2, acked, ts);
        next.flush();
      }
      assertThat(acked).as("acknowledged records").hasSize(expected.size() + 2);
      LogChecker.check(LogChecker.scan(log, 0), acked);
      LogChecker.verifyTree(log, store, 0);
    }
  }
}
