package dev.objlog.spring.core;

import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A store that holds the next head swap until the test lets it go on to the delegate, so the test
 * can act while a publish is in flight: send more, or fail uploads.
 */
final class HeadSwapGate extends ForwardingObjectStore {
  private volatile CountDownLatch reached = new CountDownLatch(1);
  private volatile CountDownLatch release = new CountDownLatch(1);
  private volatile boolean armed;
  private final Semaphore uploaded = new Semaphore(0);
  /** Uploads fail at once (a permanent error, like a denied write), while set. */
  volatile boolean failUploads;

  HeadSwapGate(ObjectStore delegate) {
    super(delegate);
  }

  /** Holds the next head swap. */
  void holdNextHeadSwap() {
    reached = new CountDownLatch(1);
    release = new CountDownLatch(1);
    armed = true;
  }

  /** Waits until the held swap arrived. */
  void awaitHeld() throws InterruptedException {
    if (!reached.await(30, TimeUnit.SECONDS)) {
      throw new AssertionError("no head swap arrived at the gate");
    }
  }

  /** Lets the held swap go on to the delegate. */
  void pass() {
    release.countDown();
  }

  private static boolean isHead(String key) {
    return key.endsWith("/head.plc");
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    if (armed && isHead(key)) {
      armed = false;
      reached.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    return delegate.compareAndSwap(key, expected, bytes);
  }

  @Override
  public ObjectUpload startUpload(String key) {
    if (failUploads) {
      throw new IllegalStateException("test: writing " + key + " was denied");
    }
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
        CreateResult result = upload.complete();
        uploaded.release();
        return result;
      }

      @Override
      public void abort() {
        upload.abort();
      }
    };
  }

  /** Waits until {@code count} more uploads completed since the last call. */
  void awaitUploads(int count) throws InterruptedException {
    if (!uploaded.tryAcquire(count, 30, TimeUnit.SECONDS)) {
      throw new AssertionError(count + " upload(s) did not complete");
    }
  }

  @Override
  public String describe() {
    return "head-swap-gate(" + delegate.describe() + ")";
  }
}
