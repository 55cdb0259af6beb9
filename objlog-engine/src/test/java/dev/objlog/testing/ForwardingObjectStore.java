package dev.objlog.testing;

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
import java.util.Optional;

/**
 * Base for test-side store decorators (fault injectors, gates, observers): passes every call to
 * the delegate, so a subclass overrides only the calls it changes.
 *
 * <p>Two interface defaults are deliberately NOT forwarded: {@link #close()} does nothing, because
 * a decorator does not own the store it wraps (the test that built the delegate closes it); and
 * {@link #verifyConditionalWrites(String)} runs the self-test through this decorator, so the test
 * exercises what the decorator does rather than bypassing it. {@link #describe()} names the
 * subclass around the delegate's description; subclasses may override it.
 *
 * <p>Thread-safety: as thread-safe as the delegate; subclasses state their own.
 */
public abstract class ForwardingObjectStore implements ObjectStore {
  protected final ObjectStore delegate;

  protected ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public StoredObject get(String key) {
    return delegate.get(key);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    return delegate.getRange(key, offset, length);
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    return delegate.head(key);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    return delegate.getIfChanged(key, known);
  }

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    return delegate.putIfAbsent(key, bytes);
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    return delegate.compareAndSwap(key, expected, bytes);
  }

  @Override
  public ObjectUpload startUpload(String key) {
    return delegate.startUpload(key);
  }

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    return delegate.list(prefix, afterKey, limit);
  }

  @Override
  public void delete(Collection<String> keys) {
    delegate.delete(keys);
  }

  @Override
  public String describe() {
    return getClass().getSimpleName() + "(" + delegate.describe() + ")";
  }

  /** Runs the self-test through this decorator (the interface default, stated on purpose). */
  @Override
  public void verifyConditionalWrites(String prefix) {
    ObjectStore.super.verifyConditionalWrites(prefix);
  }

  /** Does not close the delegate: the decorator does not own it. */
  @Override
  public void close() {}
}
