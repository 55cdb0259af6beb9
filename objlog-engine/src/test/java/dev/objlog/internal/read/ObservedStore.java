package dev.objlog.internal.read;

import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A store decorator for reader tests: what conditional GETs answered, how many ranged GETs were in
 * flight at once, and gates that hold requests so a test can line up concurrent callers
 * deterministically.
 */
final class ObservedStore extends ForwardingObjectStore {
  final AtomicInteger gets = new AtomicInteger();
  final AtomicInteger conditionalGets = new AtomicInteger();
  final AtomicInteger rangeGets = new AtomicInteger();
  final List<Class<?>> conditionalAnswers = new CopyOnWriteArrayList<>();
  final AtomicInteger rangeInFlight = new AtomicInteger();
  final AtomicInteger maxRangeInFlight = new AtomicInteger();
  /** When set, conditional GETs wait on it (released by the test). */
  final AtomicReference<CountDownLatch> conditionalGate = new AtomicReference<>();
  /** Counts conditional GETs that reached the gate. */
  final AtomicInteger atConditionalGate = new AtomicInteger();
  /** When positive, ranged GETs wait (bounded) until this many are in flight at once; then it turns itself off. */
  final AtomicInteger rangeRendezvous = new AtomicInteger();

  /** When set, ranged GETs wait on it (released by the test). */
  final AtomicReference<CountDownLatch> rangeGate = new AtomicReference<>();
  /** Counts ranged GETs that reached the gate. */
  final AtomicInteger atRangeGate = new AtomicInteger();

  /** Runs before every whole-object GET and conditional GET (a test moves virtual time there). */
  volatile Runnable beforeRead = () -> {};

  ObservedStore(ObjectStore delegate) {
    super(delegate);
  }

  void resetCounts() {
    gets.set(0);
    conditionalGets.set(0);
    rangeGets.set(0);
    conditionalAnswers.clear();
    maxRangeInFlight.set(0);
  }

  @Override
  public StoredObject get(String key) {
    beforeRead.run();
    gets.incrementAndGet();
    return delegate.get(key);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    rangeGets.incrementAndGet();
    int now = rangeInFlight.incrementAndGet();
    maxRangeInFlight.accumulateAndGet(now, Math::max);
    try {
      CountDownLatch gate = rangeGate.get();
      if (gate != null) {
        atRangeGate.incrementAndGet();
        await(gate, "ranged GET gate never opened");
      }
      int want = rangeRendezvous.get();
      if (want > 0) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (rangeInFlight.get() < want && maxRangeInFlight.get() < want && System.nanoTime() < deadline) {
          Thread.onSpinWait();
          Thread.yield();
        }
        rangeRendezvous.set(0);
      }
      return delegate.getRange(key, offset, length);
    } finally {
      rangeInFlight.decrementAndGet();
    }
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    beforeRead.run();
    conditionalGets.incrementAndGet();
    CountDownLatch gate = conditionalGate.get();
    if (gate != null) {
      atConditionalGate.incrementAndGet();
      await(gate, "conditional GET gate never opened");
    }
    ConditionalGetResult result = delegate.getIfChanged(key, known);
    conditionalAnswers.add(result.getClass());
    return result;
  }

  private static void await(CountDownLatch gate, String never) {
    try {
      if (!gate.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError(never);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  @Override
  public String describe() {
    return "observed(" + delegate.describe() + ")";
  }
}
