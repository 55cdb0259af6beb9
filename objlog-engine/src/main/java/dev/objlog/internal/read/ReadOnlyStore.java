package dev.objlog.internal.read;

import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.RequestRateLimiter;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The reads of another store, each waiting for the rate limit and counted; every write is refused
 * with {@link UnsupportedOperationException}, so code handed this store provably changes nothing.
 * Closing it does not close the store it reads.
 *
 * <p>Thread-safety: as safe as the store it reads.
 */
final class ReadOnlyStore implements ObjectStore {
  private final ObjectStore store;
  private final RequestRateLimiter limiter;
  private final LongAdder requests = new LongAdder();

  ReadOnlyStore(ObjectStore store, RequestRateLimiter limiter) {
    this.store = store;
    this.limiter = limiter;
  }

  /** Requests made so far. */
  long requests() {
    return requests.sum();
  }

  private void permit() {
    limiter.acquire();
    requests.increment();
  }

  @Override
  public StoredObject get(String key) {
    permit();
    return store.get(key);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    permit();
    return store.getRange(key, offset, length);
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    permit();
    return store.head(key);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    permit();
    return store.getIfChanged(key, known);
  }

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    permit();
    return store.list(prefix, afterKey, limit);
  }

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    throw refused("put " + key);
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    throw refused("compare-and-swap " + key);
  }

  @Override
  public ObjectUpload startUpload(String key) {
    throw refused("upload " + key);
  }

  @Override
  public void delete(Collection<String> keys) {
    throw refused("delete " + keys.size() + " keys");
  }

  private static UnsupportedOperationException refused(String what) {
    return new UnsupportedOperationException("read-only access to the store refused to " + what);
  }

  @Override
  public String describe() {
    return store.describe() + " (read-only)";
  }

  @Override
  public void close() {}
}
