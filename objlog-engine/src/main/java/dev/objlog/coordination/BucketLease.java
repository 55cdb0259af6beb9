package dev.objlog.coordination;

import dev.objlog.CorruptObjectException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.coordination.json.JsonObject;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.coordination.json.JsonWriter;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
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
 * the writer lease ({@code maintenance/writer-lease.json}); {@link BucketLeaseStore} decides
 * which key a lease lives at.
 *
 * <p>Semantics are those of {@link LeaseStore}. A write whose outcome the store reports as
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
  private final CasDocument<LeaseState> document;

  /**
   * A lease at {@code objectKey}.
   *
   * @param clock the source of expiries; instances sharing the lease need roughly agreeing clocks
   */
  public BucketLease(ObjectStore store, String objectKey, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.objectKey = Objects.requireNonNull(objectKey, "objectKey");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.document = new CasDocument<>(store, objectKey, "lease",
        CasDocument.Codec.of(this::decode, BucketLease::encode),
        CasDocument.Retries.immediate(MAX_ATTEMPTS).indeterminateOnly());
  }

  /** Where the lease lives. */
  public String objectKey() {
    return objectKey;
  }

  /** See {@link LeaseStore#tryAcquire}. */
  public LeaseResult tryAcquire(String owner, Duration ttl) {
    LeaseState.checkName("owner", owner);
    long ttlMs = LeaseState.ttlMillis(ttl);
    return change((current, now) -> LeaseState.acquire(current, owner, now, ttlMs)).toResult();
  }

  /** See {@link LeaseStore#renew}. */
  public LeaseResult renew(Lease held, Duration ttl) {
    Objects.requireNonNull(held, "held");
    long ttlMs = LeaseState.ttlMillis(ttl);
    return change((current, now) -> LeaseState.renew(current, held, now, ttlMs)).toResult();
  }

  /** See {@link LeaseStore#release}. */
  public boolean release(Lease held) {
    Objects.requireNonNull(held, "held");
    return change((current, now) -> LeaseState.release(current, held)).written != null;
  }

  /** See {@link LeaseStore#current}. */
  public Optional<Lease> current() {
    return document.read().flatMap(state -> Optional.ofNullable(state.validLeaseAt(clock.millis())));
  }

  private interface Rule {
    @Nullable LeaseState apply(@Nullable LeaseState current, long nowMs);
  }

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
    try {
      return document.update(current -> {
        long now = clock.millis();
        @Nullable LeaseState seen = current.orElse(null);
        @Nullable LeaseState next = rule.apply(seen, now);
        if (next == null) {
          return CasDocument.<LeaseState, Outcome>keep(new Outcome(null, seen, now));
        }
        return CasDocument.write(next, new Outcome(next, seen, now));
      }).result();
    } catch (CasDocument.ExhaustedException e) {
      // Lost every race: report what is there now.
      StoredObject last = e.lastSeen();
      return new Outcome(null, last == null ? null : decode(last.bytes()), clock.millis());
    }
  }

  /** The document's bytes for {@code state}. */
  public static byte[] encode(LeaseState state) {
    return JsonWriter.plainObject()
        .number("version", VERSION)
        .string("owner", state.owner())
        .number("lease_until_unix_ms", state.untilMs())
        .number("epoch", state.epoch())
        .finishBytes();
  }

  private LeaseState decode(byte[] bytes) {
    JsonObject fields;
    long version;
    try {
      fields = JsonReader.parseObject(bytes, "lease").requireFlat();
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
