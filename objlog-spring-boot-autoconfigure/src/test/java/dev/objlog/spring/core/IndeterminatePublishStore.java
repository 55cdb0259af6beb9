package dev.objlog.spring.core;

import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store that makes the next publishes end indeterminate, one after the other: every head swap of
 * a publish (a swap that keeps the head's writer epoch) gets no clear answer, landing or not as
 * asked, until the writer reads the head back, which fails too. Takeovers (swaps that raise the
 * epoch) and every other request pass, so a new writer can take the partition over in between.
 */
final class IndeterminatePublishStore extends ForwardingObjectStore {
  private final AtomicInteger publishesLeft = new AtomicInteger();
  private volatile boolean lands;
  /** Whether a publish's swap failed and its read-back is still to fail. */
  private volatile boolean awaitingReadBack;
  /** Whether head reads keep failing after the read-back (nothing can take the partition over). */
  private volatile boolean readsStayDown;
  final AtomicInteger indeterminatePublishes = new AtomicInteger();

  IndeterminatePublishStore(ObjectStore delegate) {
    super(delegate);
  }

  /** The next {@code count} publishes end indeterminate; their swaps land iff {@code lands}. */
  void failPublishes(int count, boolean lands) {
    this.lands = lands;
    publishesLeft.set(count);
  }

  /** Head reads fail from the next failed publish's read-back on, until {@link #heal()}. */
  void keepHeadReadsDown() {
    readsStayDown = true;
  }

  void heal() {
    readsStayDown = false;
    awaitingReadBack = false;
    publishesLeft.set(0);
  }

  private static boolean isHead(String key) {
    return key.endsWith("/head.plc");
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    if (isHead(key) && (publishesLeft.get() > 0 || awaitingReadBack) && isPublish(key, bytes)) {
      awaitingReadBack = true;
      if (lands) {
        delegate.compareAndSwap(key, expected, bytes);
      }
      throw new IndeterminateStoreException("test: the reply of the head swap of " + key + " was lost");
    }
    return delegate.compareAndSwap(key, expected, bytes);
  }

  /** A publish keeps the stored head's writer epoch; a takeover raises it. */
  private boolean isPublish(String key, byte[] bytes) {
    try {
      long stored = CatalogCodec.decodeHead(delegate.get(key).bytes()).writerEpoch();
      return CatalogCodec.decodeHead(bytes).writerEpoch() == stored;
    } catch (ObjectNotFoundException e) {
      return false;
    }
  }

  private void failHeadRead(String key) {
    if (!isHead(key)) {
      return;
    }
    if (awaitingReadBack) {
      awaitingReadBack = false;
      publishesLeft.decrementAndGet();
      indeterminatePublishes.incrementAndGet();
      throw new IndeterminateStoreException("test: reading " + key + " back failed");
    }
    if (readsStayDown && indeterminatePublishes.get() > 0) {
      throw new IndeterminateStoreException("test: reading " + key + " failed, the store is still down");
    }
  }

  @Override
  public StoredObject get(String key) {
    failHeadRead(key);
    return delegate.get(key);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    failHeadRead(key);
    return delegate.getIfChanged(key, known);
  }

  @Override
  public String describe() {
    return "indeterminate-publishes(" + delegate.describe() + ")";
  }
}
