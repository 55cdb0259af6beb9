package dev.objlog.internal.writer;

import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test store that can hold uploads before they complete and head compare-and-swaps before they
 * run (closed gates block until opened, at most 60 s), and counts both, plus completed uploads,
 * upload aborts and the bytes streamed into uploads; and can answer an upload's completion as a
 * store adapter's retry after a lost reply does.
 */
final class GatedStore extends ForwardingObjectStore {
  private volatile CountDownLatch uploadGate = new CountDownLatch(0);
  private volatile CountDownLatch casGate = new CountDownLatch(0);
  final AtomicInteger uploadsStarted = new AtomicInteger();
  final AtomicInteger uploadsWaiting = new AtomicInteger();
  /** Uploads whose completion created their object. */
  final AtomicInteger uploadsCompleted = new AtomicInteger();
  final AtomicInteger uploadsAborted = new AtomicInteger();
  final java.util.concurrent.atomic.AtomicLong bytesStreamed = new java.util.concurrent.atomic.AtomicLong();
  final AtomicInteger casCalls = new AtomicInteger();
  final AtomicInteger casWaiting = new AtomicInteger();
  /** Upload completions still to answer "already exists" after they created the object. */
  final AtomicInteger repeatedCompletions = new AtomicInteger();

  GatedStore(ObjectStore delegate) {
    super(delegate);
  }

  void closeUploadGate() {
    uploadGate = new CountDownLatch(1);
  }

  void openUploadGate() {
    uploadGate.countDown();
  }

  void closeCasGate() {
    casGate = new CountDownLatch(1);
  }

  void openCasGate() {
    casGate.countDown();
  }

  /**
   * The next upload completion creates its object and then answers "already exists": what an
   * adapter's own retry loop ({@code Retrier.write}) returns when the first try's reply was lost.
   */
  void repeatNextCompletionAfterALostReply() {
    repeatedCompletions.incrementAndGet();
  }

  private static void pass(CountDownLatch gate, AtomicInteger waiting) {
    waiting.incrementAndGet();
    try {
      if (!gate.await(60, TimeUnit.SECONDS)) {
        throw new IllegalStateException("test gate stayed closed for 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      waiting.decrementAndGet();
    }
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    casCalls.incrementAndGet();
    pass(casGate, casWaiting);
    return delegate.compareAndSwap(key, expected, bytes);
  }

  @Override
  public ObjectUpload startUpload(String key) {
    uploadsStarted.incrementAndGet();
    ObjectUpload upload = delegate.startUpload(key);
    CountDownLatch gate = uploadGate;
    return new ObjectUpload() {
      @Override
      public String key() {
        return upload.key();
      }

      @Override
      public void write(byte[] bytes, int offset, int length) {
        upload.write(bytes, offset, length);
        bytesStreamed.addAndGet(length);
      }

      @Override
      public long bytesWritten() {
        return upload.bytesWritten();
      }

      @Override
      public CreateResult complete() {
        pass(gate, uploadsWaiting);
        CreateResult result = upload.complete();
        if (result instanceof CreateResult.Created) {
          uploadsCompleted.incrementAndGet();
        }
        if (result instanceof CreateResult.Created && repeatedCompletions.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          return new CreateResult.AlreadyExists();
        }
        return result;
      }

      @Override
      public void abort() {
        uploadsAborted.incrementAndGet();
        upload.abort();
      }
    };
  }

  @Override
  public String describe() {
    return "gated(" + delegate.describe() + ")";
  }
}
