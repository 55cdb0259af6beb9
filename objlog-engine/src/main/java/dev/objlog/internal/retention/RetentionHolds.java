package dev.objlog.internal.retention;

import dev.objlog.RetentionGate;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The retention holds of one open log ({@code Objlog.holdRetention}): floors that in-process
 * consumers registered, and gates over consumers elsewhere (read from their checkpoints). The
 * applier lowers every request it applies to {@link #retainableBefore(int)}.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class RetentionHolds {
  private final Set<HoldImpl> holds = ConcurrentHashMap.newKeySet();

  /** A hold of {@code partition} at {@code beforeLsn} (u64), movable with {@code moveTo}. */
  public RetentionGate.Hold hold(int partition, long beforeLsn) {
    HoldImpl hold = new HoldImpl(partition, beforeLsn, null);
    holds.add(hold);
    return hold;
  }

  /** A hold of whatever {@code gate} keeps, asked at every apply. */
  public RetentionGate.Hold hold(RetentionGate gate) {
    HoldImpl hold = new HoldImpl(-1, 0, Objects.requireNonNull(gate, "gate"));
    holds.add(hold);
    return hold;
  }

  /** The lowest LSN any open hold keeps of {@code partition}; {@code -1L} when none holds it. */
  public long retainableBefore(int partition) {
    long floor = -1L;
    for (HoldImpl hold : holds) {
      long held = hold.retainableBefore(partition);
      if (Long.compareUnsigned(held, floor) < 0) {
        floor = held;
      }
    }
    return floor;
  }

  /** Whether any hold is open (a cheap check before asking gates). */
  public boolean isEmpty() {
    return holds.isEmpty();
  }

  private final class HoldImpl implements RetentionGate.Hold {
    private final int partition;
    private final @Nullable RetentionGate gate;
    private volatile long beforeLsn;
    private volatile boolean closed;

    HoldImpl(int partition, long beforeLsn, @Nullable RetentionGate gate) {
      this.partition = partition;
      this.beforeLsn = beforeLsn;
      this.gate = gate;
    }

    @Override
    public void moveTo(long lsn) {
      if (gate != null) {
        throw new IllegalStateException("a hold of a gate moves with the gate");
      }
      if (closed) {
        throw new IllegalStateException("the retention hold of partition "
            + Integer.toUnsignedString(partition) + " is closed");
      }
      beforeLsn = lsn;
    }

    @Override
    public long retainableBefore(int p) {
      if (closed) {
        return -1L;
      }
      RetentionGate g = gate;
      if (g != null) {
        return g.retainableBefore(p);
      }
      return p == partition ? beforeLsn : -1L;
    }

    @Override
    public void close() {
      closed = true;
      holds.remove(this);
    }

    @Override
    public String toString() {
      return gate != null ? "RetentionHold[gate=" + gate + "]"
          : "RetentionHold[partition=" + Integer.toUnsignedString(partition) + ", before="
              + Long.toUnsignedString(beforeLsn) + (closed ? ", closed" : "") + "]";
    }
  }
}
