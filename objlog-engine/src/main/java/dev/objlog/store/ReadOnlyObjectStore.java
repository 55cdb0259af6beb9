package dev.objlog.store;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * The reads of another store, each waiting for a rate limit and counted; every write (put,
 * compare-and-swap, upload, delete) is refused with {@link UnsupportedOperationException}, so code
 * handed this store provably changes nothing. Used by partition verification and the command-line
 * tool's read-only mode. Closing it does not close the store it reads.
 *
 * <p>Thread-safety: as safe as the store it reads.
 */
public final class ReadOnlyObjectStore implements ObjectStore {
  private final ObjectStore store;
  private final RequestRateLimiter limiter;
  private final LongAdder requests = new LongAdder();

  private ReadOnlyObjectStore(ObjectStore store, RequestRateLimiter limiter) {
    this.store = java.util.Objects.requireNonNull(store, "store");
    this.limiter = java.util.Objects.requireNonNull(limiter, "limiter");
  }

  /** The reads of {@code store}, unlimited. */
  public static ReadOnlyObjectStore of(ObjectStore store) {
    return new ReadOnlyObjectStore(store, RequestRateLimiter.UNLIMITED);
  }

  /** The reads of {@code store}, each waiting for {@code limiter}. */
  public static ReadOnlyObjectStore of(ObjectStore store, RequestRateLimiter limiter) {
    return new ReadOnlyObjectStore(store, limiter);
  }

  /** Requests made so far (every read, including those that failed). */
  public long requests() {
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
