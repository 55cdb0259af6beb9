package dev.objlog.internal.writer;

import static dev.objlog.internal.writer.WriterFixtures.PARTITION;
import static dev.objlog.internal.writer.WriterFixtures.STREAM;
import static dev.objlog.internal.writer.WriterFixtures.keys;
import static dev.objlog.internal.writer.WriterFixtures.logOptions;

import dev.objlog.Objlog;
import dev.objlog.ObjlogException;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.WriterOptions;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.segment.RawBlock;
import dev.objlog.format.segment.RecordHeader;
import dev.objlog.format.segment.SegmentEncoderOptions;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.catalog.FencedSession;
import dev.objlog.store.memory.MemoryObjectStore;
import dev.objlog.testing.MutableClock;
import dev.objlog.testing.MutableTicker;
import dev.objlog.testing.SteppedScheduler;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writer's three parts wired as {@link WriterEngine} wires them, for the parts' own tests, on
 * a fenced session of a real log over a scripted memory store. Nothing runs by itself: every
 * background step (seals, drains, publishes, timers, backoffs) waits on a {@link SteppedScheduler}
 * until the test runs it, on virtual wall time; elapsed time is a {@link MutableTicker}. Terminal
 * failures are recorded and make the batcher terminal, as the front does. While {@link #autoPublish}
 * is off, a segment that becomes ready waits in {@link #ready} and the publisher is not told.
 */
final class WriterParts implements AutoCloseable {
  final MutableClock clock = new MutableClock();
  final MutableTicker ticker = new MutableTicker();
  final SteppedScheduler scheduler = new SteppedScheduler(clock, new SplittableRandom(15));
  final ScheduledExecutorService storeIo = scheduler.pool("store-io");
  final ScriptedFailureStore store = new ScriptedFailureStore(new MemoryObjectStore(clock), keys(PARTITION).head());
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final Objlog log;
  final LogRuntime runtime;
  final FencedSession session;
  final WriterOptions options;
  final ReentrantLock lock = new ReentrantLock();
  final List<ObjlogException> failures = new ArrayList<>();
  final List<Segment> ready = new ArrayList<>();
  final WriterMeters meters;
  final SegmentPipeline pipeline;
  final Batcher batcher;
  final Publisher publisher;
  boolean autoPublish = true;

  WriterParts(WriterOptions options) {
    this.options = options;
    this.log = Objlog.open(store, STREAM, logOptions().clock(clock).ticker(ticker).sleeper(d -> {})
        .scheduler(scheduler).storeIoExecutor(storeIo).build());
    this.runtime = ObjlogTestAccess.runtime(log);
    this.session = runtime.catalog(PARTITION).takeover(Id128.of(options.writerId()));
    long epoch = session.writerEpoch();
    byte[] tag = session.writerId().toBytes();
    Head head = session.head().head();
    LeafEntry last = head.lastSegment();
    this.meters = new WriterMeters(registry, Tags.empty(), this, p -> 0, p -> 0);
    this.pipeline = new SegmentPipeline(store, ticker, scheduler, scheduler, storeIo, options, epoch, tag,
        meters, lock, this::fail, this::failure, this::onReady, runtime.sealResources());
    this.batcher = new Batcher(PARTITION, epoch, tag, options, runtime.catalog(PARTITION).keys(),
        new SplittableRandom(16), clock, ticker, scheduler, pipeline, meters, this::fail, lock, lock.newCondition(),
        runtime.memory().open(Batcher.reservation(options)), head.nextLsn(), last != null ? last.maxTimestampMs() : Long.MIN_VALUE);
    this.publisher = new Publisher(session, runtime.catalog(PARTITION).keys(), runtime.commitBus(), storeIo,
        scheduler, ticker, options.timeouts(), meters, batcher, lock, this::fail);
  }

  private void fail(ObjlogException cause, String kind) {
    failures.add(cause);
    lock.lock();
    try {
      batcher.failLocked(cause, new ArrayList<>());
    } finally {
      lock.unlock();
    }
  }

  private ObjlogException failure() {
    return failures.isEmpty() ? null : failures.get(0);
  }

  private void onReady(Segment s) {
    ready.add(s);
    if (autoPublish) {
      publisher.kick();
    }
  }

  /** Runs background steps until none is left (at most {@code 10_000}). */
  void runAll() {
    scheduler.run(10_000);
  }

  /**
   * A cut segment of {@code values} (one record each, timestamps 1, 2, ...) from LSN {@code base}
   * built by hand, its blocks handed to the pipeline as the batcher hands them.
   */
  Segment cutSegment(long base, List<String> values) {
    byte[] uuid = new byte[16];
    uuid[15] = (byte) (base + 1);
    WriterOptions.Pipeline p = options.pipeline();
    SegmentEncoderOptions encoderOptions = new SegmentEncoderOptions(PARTITION, p.codec(), p.hashAlgorithm(),
        p.zstdLevel(), p.blockBytes(), clock.millis(), uuid, session.writerId().toBytes());
    Segment s = new Segment(base, uuid, runtime.catalog(PARTITION).keys().segment(base, session.writerEpoch(), uuid),
        encoderOptions, ticker.read());
    for (int i = 0; i < values.size(); i++) {
      RawBlock full = s.builder.append(base + i, i + 1, List.<RecordHeader>of(),
          ByteBuffer.wrap(values.get(i).getBytes(StandardCharsets.UTF_8)));
      if (full != null) {
        pipeline.seal(s, full);
      }
    }
    s.isCut = true;
    s.cutAtNanos = ticker.read();
    pipeline.sealLast(s, s.builder.takeOpenBlock(), s.builder.blocksClosed());
    return s;
  }

  @Override
  public void close() {
    log.close();
  }
}
