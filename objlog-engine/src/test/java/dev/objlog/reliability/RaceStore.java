package dev.objlog.reliability;

import dev.objlog.store.CasResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One contender's view of the store in a fencing race: holds the armed publish at the {@link
 * PublishGate}, and counts publishes that lost to a rival's takeover while in flight (held ones
 * always; others when an {@link OverlapTracker} is shared in this JVM). Everything else passes
 * through unchanged.
 *
 * <p>Thread-safety: safe for concurrent use; arm it while only one writer of this contender lives.
 */
final class RaceStore extends ForwardingObjectStore {
  private final String contender;
  private final @Nullable PublishGate gate;
  private final @Nullable OverlapTracker tracker;
  private final Consumer<String> out;
  private final AtomicInteger armedFor = new AtomicInteger(-1);
  private volatile boolean opening;
  private volatile String writer = "";
  final AtomicInteger heldOverlaps = new AtomicInteger();
  /** How each held swap ended, for the failure message. */
  final java.util.Queue<String> heldOutcomes = new java.util.concurrent.ConcurrentLinkedQueue<>();
  final AtomicInteger overlaps = new AtomicInteger();

  RaceStore(ObjectStore delegate, String contender, @Nullable PublishGate gate, @Nullable OverlapTracker tracker,
      Consumer<String> out) {
    super(delegate);
    this.contender = contender;
    this.gate = gate;
    this.tracker = tracker;
    this.out = out;
  }

  /** The next head swap of {@code writer} (its first publish) waits at the gate. */
  void arm(String writer, int incarnation) {
    this.writer = writer;
    armedFor.set(incarnation);
  }

  /** Marks the span of an openWriter call: a head swap that succeeds in it is a takeover. */
  void opening(String writer, boolean opening) {
    this.writer = writer;
    this.opening = opening;
  }

  private static boolean isHead(String key) {
    return key.endsWith("/head.plc") || key.equals("head.plc");
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    if (!isHead(key)) {
      return delegate.compareAndSwap(key, expected, bytes);
    }
    boolean takeover = opening;
    long started = tracker == null ? 0 : tracker.tick();
    int held = armedFor.getAndSet(-1);
    if (held >= 0 && gate != null) {
      gate.holdUntilTaken(held);
    }
    CasResult result;
    try {
      result = delegate.compareAndSwap(key, expected, bytes);
    } catch (RuntimeException e) {
      if (held >= 0) {
        countHeldThatThrew(key, bytes, e);
      }
      throw e;
    }
    long ended = tracker == null ? 0 : tracker.tick();
    if (result.swapped()) {
      if (takeover && tracker != null) {
        tracker.tookOver(contender, ended);
      }
    } else if (!takeover) {
      if (held >= 0) {
        heldOutcomes.add(writer + ": not swapped");
        heldOverlaps.incrementAndGet();
        overlaps.incrementAndGet();
        out.accept("OVERLAP " + writer + " held");
      } else if (tracker != null && tracker.rivalTookOverSince(contender, started)) {
        overlaps.incrementAndGet();
        out.accept("OVERLAP " + writer + " free");
      }
    }
    if (held >= 0 && result.swapped()) {
      heldOutcomes.add(writer + ": SWAPPED after the rival's takeover");
    }
    return result;
  }

  /**
   * A held swap whose reply was an error (a loaded server's timeout, say) still lost if the head
   * is not ours afterwards: read it back, so the count does not depend on how the store answered.
   */
  private void countHeldThatThrew(String key, byte[] bytes, RuntimeException e) {
    boolean landed;
    try {
      landed = java.util.Arrays.equals(delegate.get(key).bytes(), bytes);
    } catch (RuntimeException readBack) {
      heldOutcomes.add(writer + ": threw " + e + "; read-back failed: " + readBack);
      return;
    }
    heldOutcomes.add(writer + ": threw " + e + (landed ? "; it landed" : "; it did not land"));
    if (!landed) {
      heldOverlaps.incrementAndGet();
      overlaps.incrementAndGet();
      out.accept("OVERLAP " + writer + " held");
    }
  }

  @Override
  public String describe() {
    return delegate.describe();
  }
}
