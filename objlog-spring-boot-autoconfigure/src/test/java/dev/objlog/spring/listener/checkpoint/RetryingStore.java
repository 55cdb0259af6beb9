package dev.objlog.spring.listener.checkpoint;

import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.Retrier;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.util.Collection;
import java.util.Optional;

/**
 * Conditional writes and whole reads through the engine's {@link Retrier}, as the S3, GCS and
 * Azure adapters run them: put in front of a fault-injecting store, a lost reply is retried, and
 * the retry answers "conflict" or "already exists" with what the first try wrote.
 *
 * <p>Thread-safety: as the target store.
 */
public final class RetryingStore implements ObjectStore {
  private final ObjectStore target;
  private final Retrier retrier;

  public RetryingStore(ObjectStore target, Retrier retrier) {
    this.target = target;
    this.retrier = retrier;
  }

  @Override public StoredObject get(String key) { return retrier.read("GET " + key, () -> target.get(key)); }
  @Override public byte[] getRange(String key, long offset, int length) { return target.getRange(key, offset, length); }
  @Override public Optional<ObjectMetadata> head(String key) { return target.head(key); }
  @Override public ConditionalGetResult getIfChanged(String key, VersionToken known) { return target.getIfChanged(key, known); }
  @Override public CreateResult putIfAbsent(String key, byte[] bytes) { return retrier.write("PUT " + key, () -> target.putIfAbsent(key, bytes)); }
  @Override public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) { return retrier.write("CAS " + key, () -> target.compareAndSwap(key, expected, bytes)); }
  @Override public ObjectUpload startUpload(String key) { return target.startUpload(key); }
  @Override public ListPage list(String prefix, String afterKey, int limit) { return target.list(prefix, afterKey, limit); }
  @Override public void delete(Collection<String> keys) { target.delete(keys); }
  @Override public String describe() { return "retrying(" + target.describe() + ")"; }
}
