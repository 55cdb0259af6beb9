package dev.objlog.reliability;

import static dev.objlog.reliability.CrashChildren.say;

import dev.objlog.AppendResult;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterOptions;
import dev.objlog.lifecycle.Reclaimer;
import dev.objlog.lifecycle.ReclaimerOptions;
import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.VersionToken;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.testing.ForwardingObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child JVM of {@link NamedCrashPointTests}: a writer on the filesystem store that stops dead
 * at one named crash point, prints {@code AT <point>} and blocks there until the parent kills it.
 * The points are decorators around the store (and, for the rename, the file-system layer), armed
 * only after at least one record was acknowledged; production code has no flag for them.
 *
 * <p>Args: store root, stream, point, incarnation number. Prints {@code READY <epoch>}, {@code ACK
 * <value> <lsn> .} per acknowledged record, then {@code AT <point>}; {@code MISSED <point>} (exit
 * 3) if the run never reached the point.
 */
final class NamedCrashChild {
  private NamedCrashChild() {}

  /** The named crash points. */
  enum Point {
    /** A segment upload completed (the object is in place), before the writer learns it. */
    AFTER_SEGMENT_UPLOAD("after-segment-upload"),
    /** The head compare-and-swap succeeded, before its reply is used. */
    AFTER_HEAD_SWAP("after-head-swap"),
    /** An object was renamed into its folder, before the folder is synced. */
    BETWEEN_RENAME_AND_DIRECTORY_SYNC("between-rename-and-directory-sync"),
    /** Inside {@code applyRetention}: its head swap landed, its result not yet returned. */
    INSIDE_RETENTION_APPLY("inside-retention-apply"),
    /** Inside a reclaimer delete wave: the first key of a batch deleted, the rest not. */
    INSIDE_RECLAIM_DELETE_WAVE("inside-reclaim-delete-wave");

    final String label;

    Point(String label) {
      this.label = label;
    }

    static Point of(String label) {
      for (Point p : values()) {
        if (p.label.equals(label)) {
          return p;
        }
      }
      throw new IllegalArgumentException("no crash point " + label);
    }
  }

  /** The reclaimer's owner id, fixed so that a restarted reclaimer resumes its own lease. */
  static final String RECLAIMER = "c0dec0dec0dec0dec0dec0dec0dec0de";

  private static volatile Point armed;
  private static volatile String headKey;

  /** Prints the marker and blocks the calling thread for good: the parent kills the process. */
  static void stopHere(Point point) {
    if (armed != point) {
      return;
    }
    say("AT " + point.label);
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new IllegalStateException("a crash point was interrupted instead of killed");
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    Point point = Point.of(args[2]);
    int incarnation = Integer.parseInt(args[3]);
    PowerCutFileSystem fs = new PowerCutFileSystem(root.getParent(), false);
    fs.beforeRenameSync(dir -> {
      if (!dir.toString().contains("/.objlog")) {
        stopHere(Point.BETWEEN_RENAME_AND_DIRECTORY_SYNC);
      }
    });
    ObjectStore real = FilesystemObjectStore.open(fs.disk().resolve(root.getFileName().toString()));
    try (ObjectStore store = new CrashPointStore(real); Objlog log = Objlog.open(store, args[1]);
        PartitionWriter w = log.openWriter(0, WriterOptions.builder().batch(Duration.ZERO, 1 << 20, 1_000).build())) {
      headKey = ObjlogTestAccess.runtime(log).catalog(0).headKey();
      long epoch = w.state().committed().writerEpoch();
      say("READY " + epoch);
      AtomicInteger acked = new AtomicInteger();
      long seq = 0;
      long ts = System.currentTimeMillis();
      // Some acknowledged records first, so the kill always has something to lose.
      CountDownLatch firstAck = new CountDownLatch(1);
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 3; i++) {
          String v = LogChecker.value("n" + incarnation, epoch, seq++);
          AppendResult r = w.append(LogRecord.of(ts++, v));
          r.committed().thenAccept(h -> {
            say("ACK " + v + " " + r.lsn() + " .");
            acked.incrementAndGet();
            firstAck.countDown();
          });
        }
        w.flush();
      }
      firstAck.await();
      switch (point) {
        case AFTER_SEGMENT_UPLOAD, AFTER_HEAD_SWAP, BETWEEN_RENAME_AND_DIRECTORY_SYNC -> {
          armed = point;
          String v = LogChecker.value("n" + incarnation, epoch, seq++);
          w.append(LogRecord.of(ts++, v));
          w.flush();
        }
        case INSIDE_RETENTION_APPLY -> {
          log.requestRetention(0, incarnation + 1L, w.state().committed().nextLsn() - 2);
          armed = point;
          w.applyRetention();
        }
        case INSIDE_RECLAIM_DELETE_WAVE -> {
          log.requestRetention(0, incarnation + 1L, w.state().committed().nextLsn() - 2);
          w.applyRetention();
          armed = point;
          try (Reclaimer reclaimer = Reclaimer.create(log, ReclaimerOptions.builder().ownerId(RECLAIMER).deleteDelay(Duration.ofMillis(1))
              .deleteBatchSize(2).deleteConcurrency(1).build())) {
            for (int pass = 0; pass < 200; pass++) {
              reclaimer.reclaim(0);
              reclaimer.scrub(0);
              Thread.sleep(5);
            }
          }
        }
      }
      say("MISSED " + point.label + " (acknowledged " + acked.get() + ")");
      System.exit(3);
    }
  }

  /** Delegates everything; stops at the armed point. */
  private static final class CrashPointStore extends ForwardingObjectStore {

    CrashPointStore(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
      CasResult result = delegate.compareAndSwap(key, expected, bytes);
      if (key.equals(headKey) && result instanceof CasResult.Swapped) {
        stopHere(Point.AFTER_HEAD_SWAP);
        stopHere(Point.INSIDE_RETENTION_APPLY);
      }
      return result;
    }

    @Override
    public ObjectUpload startUpload(String key) {
      ObjectUpload upload = delegate.startUpload(key);
      return new ObjectUpload() {
        @Override public String key() { return upload.key(); }
        @Override public void write(byte[] bytes, int offset, int length) { upload.write(bytes, offset, length); }
        @Override public long bytesWritten() { return upload.bytesWritten(); }
        @Override public void abort() { upload.abort(); }

        @Override
        public CreateResult complete() {
          CreateResult result = upload.complete();
          if (result instanceof CreateResult.Created) {
            stopHere(Point.AFTER_SEGMENT_UPLOAD);
          }
          return result;
        }
      };
    }

    @Override
    public void delete(Collection<String> keys) {
      if (armed != Point.INSIDE_RECLAIM_DELETE_WAVE || keys.size() < 2) {
        delegate.delete(keys);
        return;
      }
      List<String> wave = new ArrayList<>(keys);
      delegate.delete(wave.subList(0, 1));
      stopHere(Point.INSIDE_RECLAIM_DELETE_WAVE);
    }

    @Override public String describe() { return delegate.describe(); }

    @Override
    public void close() {
      delegate.close();
    }
  }
}
