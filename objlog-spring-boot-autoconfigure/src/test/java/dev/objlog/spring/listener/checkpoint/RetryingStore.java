package dev.objlog.spring.listener.checkpoint;

import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.Retrier;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;

/**
 * Conditional writes and whole reads through the engine's {@link Retrier}, as the S3, GCS and
 * Azure adapters run them: put in front of a fault-injecting store, a lost reply is retried, and
 * the retry answers "conflict" or "already exists" with what the first try wrote.
 *
 * <p>Thread-safety: as the delegate store.
 */
public final class RetryingStore extends ForwardingObjectStore {
  private final Retrier retrier;

  public RetryingStore(ObjectStore delegate, Retrier retrier) {
    super(delegate);
    this.retrier = retrier;
  }

  @Override public StoredObject get(String key) { return retrier.read("GET " + key, () -> delegate.get(key)); }
  @Override public CreateResult putIfAbsent(String key, byte[] bytes) { return retrier.write("PUT " + key, () -> delegate.putIfAbsent(key, bytes)); }
  @Override public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) { return retrier.write("CAS " + key, () -> delegate.compareAndSwap(key, expected, bytes)); }
  @Override public String describe() { return "retrying(" + delegate.describe() + ")"; }
}
