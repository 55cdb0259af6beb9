package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.objlog.LogRecord;
import dev.objlog.MemoryBudget;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionWriter;
import dev.objlog.WriterBackpressureException;
import dev.objlog.WriterOptions;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.segment.Codec;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.testing.ForwardingObjectStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * The child JVM of {@link BudgetUnderLoadTests} (run with {@code -Xmx256m}): 4 streams of 16
 * partitions on one filesystem store and one default {@link MemoryBudget}. After a first committed
 * round it closes a gate that holds every upload's completion, so nothing commits; 64 producers
 * (one per partition writer, {@code failWhenFull}) append until their writer refuses, while one
 * reader per stream replays the first round over and over. Once every producer was refused and
 * every reader is replaying (paused mid-replay, so nothing allocates meanwhile), it collects
 * garbage and prints the heap then in use. The parent opens
 * the gate (a line on stdin); the child flushes every writer and prints how many records each
 * partition acknowledged, for the parent to read back.
 *
 * <p>Protocol on stdout: {@code budget BYTES}, then {@code full HEAP_AFTER_GC POOL_HELD}, then after
 * {@code open} on stdin one {@code acked STREAM PARTITION NEXT_LSN} per partition, then {@code done}.
 * Any failure prints {@code error ...} and exits with 1.
 */
public final class BudgetUnderLoadChild {
  static final int STREAMS = 4;
  static final int PARTITIONS = 16;
  static final int VALUE_BYTES = 1024;
  static final int FIRST_ROUND = 256;
  static final long TIMESTAMP = 1_776_000_000_000L;

  private BudgetUnderLoadChild() {}

  static String stream(int s) {
    return "load/s" + s;
  }

  /** The value of a record: random bytes (incompressible, the worst case) fixed by its place. */
  static byte[] value(int stream, int partition, long lsn) {
    byte[] v = new byte[VALUE_BYTES];
    new SplittableRandom(((long) stream << 56) ^ ((long) partition << 40) ^ lsn).nextBytes(v);
    return v;
  }

  /**
   * 256 KiB blocks and records of at most 64 KiB: the reservation of each writer (one record plus
   * one block) is then about 330 KiB, so all 64 fit a 64 MiB budget with room to borrow; with 1 MiB
   * blocks and the format's 4 MiB records only a dozen would.
   */
  static WriterOptions writerOptions() {
    return WriterOptions.builder()
        .backpressure(new WriterOptions.BackpressurePolicy(4, 256L << 20, true, 64 << 10))
        .pipeline(new WriterOptions.Pipeline(256 << 10, Codec.ZSTD, 1, HashAlgorithm.XXH64, null))
        .build();
  }

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, UTF_8);
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    MemoryBudget budget = MemoryBudget.heapDefault();
    out.println("budget " + budget.capacityBytes());
    GatedStore store = new GatedStore(FilesystemObjectStore.open(Path.of(args[0])));
    ObjlogOptions options = ObjlogOptions.builder().memoryBudget(budget).build();
    List<Objlog> logs = new ArrayList<>();
    List<PartitionWriter> writers = new ArrayList<>();
    for (int s = 0; s < STREAMS; s++) {
      Objlog log = Objlog.open(store, stream(s), options);
      logs.add(log);
      for (int p = 0; p < PARTITIONS; p++) {
        PartitionWriter w = log.openWriter(p, writerOptions());
        for (long lsn = 0; lsn < FIRST_ROUND; lsn++) {
          w.append(LogRecord.of(TIMESTAMP, value(s, p, lsn)));
        }
        writers.add(w);
      }
    }
    for (PartitionWriter w : writers) {
      w.flush();
    }

    store.holdUploads(); // from now on nothing commits until the parent opens the gate
    AtomicBoolean stop = new AtomicBoolean();
    CountDownLatch replaying = new CountDownLatch(STREAMS);
    // At the measurement the readers stop mid-replay, holding what their replays hold, so that
    // what they would allocate meanwhile does not count as heap in use after the collection.
    AtomicBoolean pause = new AtomicBoolean();
    CountDownLatch paused = new CountDownLatch(STREAMS);
    CountDownLatch resumed = new CountDownLatch(1);
    List<Thread> readers = new ArrayList<>();
    // Readers open logs of their own (as a reading service in the same process would), so their
    // fetches do not queue behind the held upload completions on the writers' store I/O threads;
    // they share the budget.
    List<Objlog> readerLogs = new ArrayList<>();
    for (int s = 0; s < STREAMS; s++) {
      Objlog readerLog = Objlog.open(store, stream(s), options);
      readerLogs.add(readerLog);
      LogReader reader = readerLog.reader();
      int stream = s;
      AtomicBoolean counted = new AtomicBoolean();
      AtomicBoolean held = new AtomicBoolean();
      readers.add(start("reader-" + s, errors, () -> {
        while (!stop.get()) {
          for (int p = 0; p < PARTITIONS && !stop.get(); p++) {
            long expected = 0;
            try (Stream<ReadRecord> replay = reader.partition(p).replay(0)) {
              for (Iterator<ReadRecord> it = replay.iterator(); it.hasNext(); ) {
                ReadRecord r = it.next();
                if (r.lsn() != expected++) {
                  throw new AssertionError("stream " + stream + " partition " + p + " replayed LSN " + r.lsn());
                }
                if (counted.compareAndSet(false, true)) {
                  replaying.countDown();
                }
                if (pause.get() && held.compareAndSet(false, true)) {
                  paused.countDown();
                  resumed.await();
                }
              }
            }
            if (expected < FIRST_ROUND) {
              throw new AssertionError("stream " + stream + " partition " + p + " replayed " + expected);
            }
          }
        }
      }));
    }

    CountDownLatch refused = new CountDownLatch(writers.size());
    CountDownLatch opened = new CountDownLatch(1);
    long[] next = new long[writers.size()];
    List<Thread> producers = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      int index = i;
      PartitionWriter w = writers.get(i);
      producers.add(start("producer-" + i, errors, () -> {
        long lsn = FIRST_ROUND;
        try {
          while (true) {
            w.append(LogRecord.of(TIMESTAMP, value(index / PARTITIONS, index % PARTITIONS, lsn)));
            lsn++;
          }
        } catch (WriterBackpressureException full) {
          next[index] = lsn;
          refused.countDown();
        }
        opened.await();
      }));
    }
    awaitOrFail(refused, errors, out);
    awaitOrFail(replaying, errors, out);
    pause.set(true);
    awaitOrFail(paused, errors, out);
    // The fullest point: every writer holds all the budget lets it, the readers are mid-replay.
    long heap = heapAfterGc();
    out.println("full " + heap + " " + budget.usedBytes());

    String line = new BufferedReader(new InputStreamReader(System.in, UTF_8)).readLine();
    if (!"open".equals(line)) {
      fail(out, "expected open, read " + line);
    }
    resumed.countDown();
    store.releaseUploads();
    opened.countDown();
    for (Thread t : producers) {
      t.join();
    }
    for (int i = 0; i < writers.size(); i++) {
      PartitionHead head = writers.get(i).flush();
      if (head.nextLsn() != next[i]) {
        fail(out, "partition writer " + i + " accepted up to LSN " + next[i] + " but committed " + head.nextLsn());
      }
      out.println("acked " + i / PARTITIONS + " " + i % PARTITIONS + " " + head.nextLsn());
    }
    stop.set(true);
    for (Thread t : readers) {
      t.join();
    }
    for (PartitionWriter w : writers) {
      w.close();
    }
    for (Objlog log : readerLogs) {
      log.close();
    }
    for (Objlog log : logs) {
      log.close();
    }
    if (!errors.isEmpty()) {
      errors.peek().printStackTrace(out);
      fail(out, String.valueOf(errors.peek()));
    }
    out.println("done");
  }

  /**
   * Heap in use after a full collection, once it settles: the replays' read-ahead may still be
   * fetching its last blocks (bounded, and counted) during the first collections, and the garbage
   * its decoding leaves would count too. Collects until two readings agree within 1 MiB (at most 6).
   */
  private static long heapAfterGc() {
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 6; i++) {
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(used - last) < (1L << 20)) {
        return used;
      }
      last = used;
    }
    return last;
  }

  private interface Body {
    void run() throws Exception;
  }

  private static Thread start(String name, ConcurrentLinkedQueue<Throwable> errors, Body body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
      } catch (Throwable e) {
        errors.add(e);
      }
    }, name);
    t.start();
    return t;
  }

  /** Waits for the latch; a thread that failed meanwhile ends the child instead of hanging it. */
  private static void awaitOrFail(CountDownLatch latch, ConcurrentLinkedQueue<Throwable> errors, PrintStream out)
      throws InterruptedException {
    while (!latch.await(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
      if (!errors.isEmpty()) {
        errors.peek().printStackTrace(out);
        fail(out, String.valueOf(errors.peek()));
      }
    }
  }

  private static void fail(PrintStream out, String message) {
    out.println("error " + message);
    System.exit(1);
  }

  /**
   * Holds every upload's completion while closed: the segment's blocks are all written, but it
   * does not become visible, so its writer keeps it pending. Thread-safety: safe for concurrent use.
   */
  static final class GatedStore extends ForwardingObjectStore {
    private volatile CountDownLatch gate = new CountDownLatch(0);

    GatedStore(ObjectStore delegate) {
      super(delegate);
    }

    void holdUploads() {
      gate = new CountDownLatch(1);
    }

    void releaseUploads() {
      gate.countDown();
    }

    @Override
    public ObjectUpload startUpload(String key) {
      ObjectUpload upload = delegate.startUpload(key);
      return new ObjectUpload() {
        @Override
        public String key() {
          return upload.key();
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
          upload.write(bytes, offset, length);
        }

        @Override
        public long bytesWritten() {
          return upload.bytesWritten();
        }

        @Override
        public CreateResult complete() {
          CountDownLatch g = gate;
          boolean interrupted = false;
          while (true) {
            try {
              g.await();
              break;
            } catch (InterruptedException e) {
              interrupted = true;
            }
          }
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
          return upload.complete();
        }

        @Override
        public void abort() {
          upload.abort();
        }
      };
    }
  }
}
