package dev.objlog.benchmarks;

import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A benchmark-side decorator that counts requests by operation and by the kind of object they
 * touch (the catalog head, catalog pages, segments, anything else), and can add a fixed delay to
 * writes of the catalog head only, to build a commit backlog without slowing uploads. The engine's
 * {@code FaultInjectingObjectStore} counts by operation only; this one is what "head writes per
 * segment" and "GETs per point read" need. Every instance is a distinct store for the engine's
 * same-JVM commit bus, so a log opened over it behaves like another process.
 *
 * <p>Thread-safety: safe for concurrent use when the delegate is.
 */
final class MeteredStore implements ObjectStore {

  enum Kind { HEAD, PAGE, SEGMENT, OTHER }

  private final ObjectStore delegate;
  private final long headWriteDelayNanos;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final java.util.concurrent.ConcurrentLinkedQueue<Long> segmentSizes =
      new java.util.concurrent.ConcurrentLinkedQueue<>();

  /** Timed segment uploads (kind 0: start → complete) and head swaps (kind 1), when recording. */
  final java.util.concurrent.ConcurrentLinkedQueue<long[]> events = new java.util.concurrent.ConcurrentLinkedQueue<>();
  volatile boolean recording;

  MeteredStore(ObjectStore delegate) {
    this(delegate, 0);
  }

  MeteredStore(ObjectStore delegate, long headWriteDelayNanos) {
    this.delegate = delegate;
    this.headWriteDelayNanos = headWriteDelayNanos;
  }

  static Kind kind(String key) {
    if (key.endsWith("head.plc")) {
      return Kind.HEAD;
    }
    if (key.endsWith(".plseg")) {
      return Kind.SEGMENT;
    }
    if (key.contains("/pages/") || key.endsWith(".plc")) {
      return Kind.PAGE;
    }
    return Kind.OTHER;
  }

  private void count(String op, String key) {
    counts.computeIfAbsent(op + ":" + kind(key), k -> new AtomicLong()).incrementAndGet();
  }

  /** Requests of {@code op} (GET, GET_RANGE, GET_IF_CHANGED, HEAD, PUT_IF_ABSENT, CAS, UPLOAD, LIST, DELETE) on {@code kind}. */
  long count(String op, Kind kind) {
    AtomicLong c = counts.get(op + ":" + kind);
    return c == null ? 0 : c.get();
  }

  /** GET-class requests (whole, ranged, conditional) on {@code kind}. */
  long gets(Kind kind) {
    return count("GET", kind) + count("GET_RANGE", kind) + count("GET_IF_CHANGED", kind);
  }

  long gets() {
    long n = 0;
    for (Kind k : Kind.values()) {
      n += gets(k);
    }
    return n;
  }

  /** Every counter, sorted, for the results file. */
  Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  /** Sizes of the segment objects uploaded since the last reset. */
  java.util.List<Long> segmentSizes() {
    return java.util.List.copyOf(segmentSizes);
  }

  /**
   * PUT-class requests the segments uploaded since the last reset cost on S3 (the S3 adapter's
   * model): a segment of at most one part is one conditional PutObject, a larger one a multipart
   * upload of N parts, N + 2 requests.
   */
  long s3SegmentPuts(long partSize) {
    long puts = 0;
    for (long size : segmentSizes) {
      puts += size <= partSize ? 1 : (size + partSize - 1) / partSize + 2;
    }
    return puts;
  }

  void reset() {
    counts.clear();
    segmentSizes.clear();
  }

  ObjectStore delegate() {
    return delegate;
  }

  private void headDelay(String key) {
    if (headWriteDelayNanos > 0 && kind(key) == Kind.HEAD) {
      LockSupport.parkNanos(headWriteDelayNanos);
    }
  }

  @Override
  public StoredObject get(String key) {
    count("GET", key);
    return delegate.get(key);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    count("GET_RANGE", key);
    return delegate.getRange(key, offset, length);
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    count("HEAD", key);
    return delegate.head(key);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    count("GET_IF_CHANGED", key);
    return delegate.getIfChanged(key, known);
  }

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    count("PUT_IF_ABSENT", key);
    headDelay(key);
    return delegate.putIfAbsent(key, bytes);
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    count("CAS", key);
    long t0 = System.nanoTime();
    headDelay(key);
    CasResult r = delegate.compareAndSwap(key, expected, bytes);
    if (recording && kind(key) == Kind.HEAD) {
      events.add(new long[] {1, t0, System.nanoTime()});
    }
    return r;
  }

  @Override
  public ObjectUpload startUpload(String key) {
    count("UPLOAD", key);
    long t0 = System.nanoTime();
    ObjectUpload upload = delegate.startUpload(key);
    return new ObjectUpload() {
      private long written;

      @Override
      public String key() {
        return upload.key();
      }

      @Override
      public void write(byte[] bytes, int offset, int length) {
        upload.write(bytes, offset, length);
        written += length;
      }

      @Override
      public long bytesWritten() {
        return upload.bytesWritten();
      }

      @Override
      public CreateResult complete() {
        CreateResult r = upload.complete();
        if (kind(key) == Kind.SEGMENT) {
          segmentSizes.add(written);
          if (recording) {
            events.add(new long[] {0, t0, System.nanoTime()});
          }
        }
        return r;
      }

      @Override
      public void abort() {
        upload.abort();
      }
    };
  }

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    count("LIST", prefix);
    return delegate.list(prefix, afterKey, limit);
  }

  @Override
  public void delete(Collection<String> keys) {
    for (String k : keys) {
      count("DELETE", k);
    }
    delegate.delete(keys);
  }

  @Override
  public String describe() {
    return "metered(" + delegate.describe() + ")";
  }
}
