package dev.objlog.internal.writer;

import dev.objlog.store.CasResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test store that hands every segment upload start and every head compare-and-swap to a script
 * first, with the call's number (from 1). The script may move virtual time and throw (a {@link
 * dev.objlog.store.TransientStoreException} to fail the request before it reaches the store);
 * returning lets the request through.
 */
final class ScriptedFailureStore extends ForwardingObjectStore {
  /** Runs before a request; throws to fail it. */
  @FunctionalInterface
  interface Script {
    void before(int call);
  }

  private final String headKey;
  private volatile Script uploads = call -> {};
  private volatile Script headSwaps = call -> {};
  final AtomicInteger uploadCalls = new AtomicInteger();
  final AtomicInteger headSwapCalls = new AtomicInteger();

  ScriptedFailureStore(ObjectStore delegate, String headKey) {
    super(delegate);
    this.headKey = headKey;
  }

  void onUploadStart(Script script) {
    uploads = script;
  }

  void onHeadSwap(Script script) {
    headSwaps = script;
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    if (key.equals(headKey)) {
      headSwaps.before(headSwapCalls.incrementAndGet());
    }
    return delegate.compareAndSwap(key, expected, bytes);
  }

  @Override
  public ObjectUpload startUpload(String key) {
    uploads.before(uploadCalls.incrementAndGet());
    return delegate.startUpload(key);
  }

  @Override
  public String describe() {
    return "scripted(" + delegate.describe() + ")";
  }
}
