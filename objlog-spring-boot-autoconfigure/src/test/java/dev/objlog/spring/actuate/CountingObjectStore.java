package dev.objlog.spring.actuate;

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

/** A store decorator that counts the requests passed to the store it wraps, by operation. */
public final class CountingObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  public CountingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  private void count(String operation) {
    counts.computeIfAbsent(operation, k -> new AtomicLong()).incrementAndGet();
  }

  /** Requests so far, all operations. */
  public long total() {
    return counts.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** Requests so far by operation name ({@code get}, {@code getIfChanged}, ...). */
  public Map<String, Long> byOperation() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  @Override
  public StoredObject get(String key) {
    count("get");
    return delegate.get(key);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    count("getRange");
    return delegate.getRange(key, offset, length);
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    count("head");
    return delegate.head(key);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    count("getIfChanged");
    return delegate.getIfChanged(key, known);
  }

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    count("putIfAbsent");
    return delegate.putIfAbsent(key, bytes);
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    count("compareAndSwap");
    return delegate.compareAndSwap(key, expected, bytes);
  }

  @Override
  public ObjectUpload startUpload(String key) {
    count("startUpload");
    return delegate.startUpload(key);
  }

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    count("list");
    return delegate.list(prefix, afterKey, limit);
  }

  @Override
  public void delete(Collection<String> keys) {
    count("delete");
    delegate.delete(keys);
  }

  @Override
  public String describe() {
    return delegate.describe();
  }

  @Override
  public void verifyConditionalWrites(String prefix) {
    delegate.verifyConditionalWrites(prefix);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
