package dev.objlog.spring.listener.checkpoint;

import dev.objlog.CorruptObjectException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.coordination.json.JsonWriter;
import dev.objlog.store.CasResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One lease kept as one JSON object in the bucket and changed only by compare-and-swap: {@code
 * {"version":1,"owner":"...","lease_until_unix_ms":N,"epoch":N}} (ARCHITECTURE.md, "Our own
 * objects in the bucket"). A released lease has the owner {@code ""} and expiry 0, and keeps its
 * epoch. The same shape serves consumer-group leases ({@code consumers/<group>/lease.json}) and
 * the writer lease ({@code maintenance/writer-lease.json}); {@link BucketCheckpointRepository}
 * hands out both.
 *
 * <p>Semantics are those of {@link LeaseRepository}. A write whose outcome the store reports as
 * indeterminate is settled by reading the object back.
 *
 * <p>Error contract: refusals are answers. {@link CorruptObjectException} when the object is not
 * a lease document (an {@link UnsupportedVersionException} for a newer version); the store's
 * exceptions otherwise.
 *
 * <p>Thread-safety: safe for concurrent use, within and across processes (the store's
 * compare-and-swap is atomic).
 */
public final class BucketLease {
  /** The lease document version this class writes and reads. */
  public static final int VERSION = 1;

  private static final int MAX_ATTEMPTS = 8;

  private final ObjectStore store;
  private final String objectKey;
  private final Clock clock;

  /**
   * A lease at {@code objectKey}.
   *
   * @param clock the source of expiries; instances sharing the lease need roughly agreeing clocks
   */
  public BucketLease(ObjectStore store, String objectKey, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.objectKey = Objects.requireNonNull(objectKey, "objectKey");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Where the lease lives. */
  public String objectKey() {
    return objectKey;
  }

  /** See {@link LeaseRepository#tryAcquire(LeaseKey, String, Duration)}. */
  public LeaseResult tryAcquire(String owner, Duration ttl) {
    Names.checkOwnerId("owner", owner);
    long ttlMs = LeaseState.ttlMillis(ttl);
    return change((current, now) -> LeaseState.acquire(current, owner, now, ttlMs)).toResult();
  }

  /** See {@link LeaseRepository#renew(LeaseKey, Lease, Duration)}. */
  public LeaseResult renew(Lease held, Duration ttl) {
    Objects.requireNonNull(held, "held");
    long ttlMs = LeaseState.ttlMillis(ttl);
    return change((current, now) -> LeaseState.renew(current, held, now, ttlMs)).toResult();
  }

  /** See {@link LeaseRepository#release(LeaseKey, Lease)}. */
  public boolean release(Lease held) {
    Objects.requireNonNull(held, "held");
    return change((current, now) -> LeaseState.release(current, held)).written != null;
  }

  /** See {@link LeaseRepository#current(LeaseKey)}. */
  public Optional<Lease> current() {
    Read read = read();
    return read.state == null ? Optional.empty() : Optional.ofNullable(read.state.validLeaseAt(clock.millis()));
  }

  private interface Rule {
    @Nullable LeaseState apply(@Nullable LeaseState current, long nowMs);
  }

  private record Read(@Nullable LeaseState state, VersionToken token) {}

  /** What a change wrote (null: nothing, refused) and the state it last saw. */
  private record Outcome(@Nullable LeaseState written, @Nullable LeaseState seen, long nowMs) {
    LeaseResult toResult() {
      if (written != null) {
        return new LeaseResult.Granted(written.toLease());
      }
      return new LeaseResult.Refused(seen == null ? null : seen.validLeaseAt(nowMs));
    }
  }

  private Outcome change(Rule rule) {
    Read read = read();
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      long now = clock.millis();
      LeaseState next = rule.apply(read.state, now);
      if (next == null) {
        return new Outcome(null, read.state, now);
      }
      CasResult result;
      try {
        result = store.compareAndSwap(objectKey, read.token, encode(next));
      } catch (IndeterminateStoreException e) {
        Read after = read();
        if (next.equals(after.state)) {
          return new Outcome(next, after.state, now);
        }
        read = after;
        continue;
      }
      if (result instanceof CasResult.Swapped) {
        return new Outcome(next, read.state, now);
      }
      StoredObject current = ((CasResult.Conflict) result).current();
      read = current == null ? new Read(null, VersionToken.ABSENT) : new Read(decode(current), current.token());
    }
    // Lost every race: report what is there now.
    return new Outcome(null, read.state, clock.millis());
  }

  private Read read() {
    StoredObject object;
    try {
      object = store.get(objectKey);
    } catch (ObjectNotFoundException e) {
      return new Read(null, VersionToken.ABSENT);
    }
    return new Read(decode(object), object.token());
  }

  static byte[] encode(LeaseState state) {
    return JsonWriter.plainObject()
        .number("version", VERSION)
        .string("owner", state.owner())
        .number("lease_until_unix_ms", state.untilMs())
        .number("epoch", state.epoch())
        .finishBytes();
  }

  private LeaseState decode(StoredObject object) {
    JsonObject fields;
    long version;
    try {
      fields = JsonReader.parseObject(object.bytes(), "lease").requireFlat();
      version = fields.unsignedAtMost("version", Long.MAX_VALUE);
    } catch (CorruptObjectException e) {
      throw notALease(e);
    }
    if (version != VERSION) {
      throw new UnsupportedVersionException(objectKey + " has lease document version " + version
          + "; this library reads version " + VERSION);
    }
    try {
      return new LeaseState(
          fields.string("owner"),
          fields.unsignedAtMost("lease_until_unix_ms", Long.MAX_VALUE),
          fields.unsignedAtMost("epoch", Long.MAX_VALUE));
    } catch (CorruptObjectException e) {
      throw notALease(e);
    }
  }

  private CorruptObjectException notALease(CorruptObjectException e) {
    return new CorruptObjectException(objectKey + " is not a lease document: " + e.getMessage(), e);
  }

  @Override
  public String toString() {
    return "BucketLease[" + store.describe() + " " + objectKey + "]";
  }
}
