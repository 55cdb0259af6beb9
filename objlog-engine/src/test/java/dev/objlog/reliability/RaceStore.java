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
    CasResult result = delegate.compareAndSwap(key, expected, bytes);
    long ended = tracker == null ? 0 : tracker.tick();
    if (result.swapped()) {
      if (takeover && tracker != null) {
        tracker.tookOver(contender, ended);
      }
    } else if (!takeover) {
      if (held >= 0) {
        heldOverlaps.incrementAndGet();
        overlaps.incrementAndGet();
        out.accept("OVERLAP " + writer + " held");
      } else if (tracker != null && tracker.rivalTookOverSince(contender, started)) {
        overlaps.incrementAndGet();
        out.accept("OVERLAP " + writer + " free");
      }
    }
    return result;
  }

  @Override
  public String describe() {
    return delegate.describe();
  }
}
