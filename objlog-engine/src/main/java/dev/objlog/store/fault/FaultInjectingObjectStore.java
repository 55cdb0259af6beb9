package dev.objlog.store.fault;

import dev.objlog.InvalidArgumentException;
import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.Sleeper;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Wraps an {@link ObjectStore} and adds what real object storage does to a client: latency per
 * request (fixed plus seeded jitter), a bandwidth limit on transferred bytes, and injected faults:
 * errors before the request takes effect, lost replies after it did, timeouts, uploads that die
 * half way, and optionally dropped write conditions (create-only and compare-and-swap become
 * plain overwrites, which {@link ObjectStore#verifyConditionalWrites} must catch). Each request is
 * counted by {@link Operation} and {@link RequestType}, which benchmarks report.
 *
 * <p>Faults come from scripted {@link FaultRule}s first (in the order added), then from
 * per-operation probabilities. Every random choice is derived from the seed, the operation, the
 * key and that operation's request count for the key, never from timing, so a run with the same
 * seed and the same requests injects the same faults and sleeps the same times.
 *
 * <p>Thread-safety: safe for concurrent use when the delegate is. Uploads are single-threaded.
 */
public final class FaultInjectingObjectStore implements ObjectStore {

  /** What a request does, as the decorator counts and targets it. */
  public enum Operation {
    GET(RequestType.GET, false),
    GET_RANGE(RequestType.GET, false),
    HEAD(RequestType.HEAD, false),
    GET_IF_CHANGED(RequestType.GET, false),
    PUT_IF_ABSENT(RequestType.PUT, true),
    COMPARE_AND_SWAP(RequestType.PUT, true),
    /** A streaming upload; counted once when it starts, its faults strike while writing or at complete. */
    UPLOAD(RequestType.PUT, true),
    LIST(RequestType.LIST, false),
    /** One per key deleted. */
    DELETE(RequestType.DELETE, true);

    private final RequestType type;
    private final boolean write;

    Operation(RequestType type, boolean write) {
      this.type = type;
      this.write = write;
    }

    public RequestType type() {
      return type;
    }

    public boolean isWrite() {
      return write;
    }
  }

  /** The coarse request classes object stores bill by. */
  public enum RequestType {
    GET,
    HEAD,
    PUT,
    LIST,
    DELETE
  }

  /** A kind of injected failure. */
  public enum Fault {
    /** The request fails without reaching the store ({@code mayHaveTakenEffect = false}). */
    ERROR_BEFORE,
    /**
     * The request is performed, then its reply is lost ({@code mayHaveTakenEffect = true} for
     * writes): "the write succeeded but the client never heard".
     */
    LOST_REPLY,
    /**
     * The request hangs for the timeout, then fails; a write is performed or not (a seeded coin)
     * and reported with {@code mayHaveTakenEffect = true}, since a client cannot tell.
     */
    TIMEOUT,
    /** An upload dies half way: some bytes reach the store, then it is aborted. Uploads only. */
    TORN_UPLOAD
  }

  /**
   * A scripted fault: the next {@code times} requests of one of {@code operations} whose key starts
   * with {@code keyPrefix} fail with {@code fault}.
   */
  public record FaultRule(Set<Operation> operations, String keyPrefix, Fault fault, int times) {
    public FaultRule {
      operations = Set.copyOf(EnumSet.copyOf(Objects.requireNonNull(operations, "operations")));
      Objects.requireNonNull(keyPrefix, "keyPrefix");
      Objects.requireNonNull(fault, "fault");
      if (times < 1) {
        throw new InvalidArgumentException("a fault rule must fire at least once, was " + times);
      }
      if (fault == Fault.TORN_UPLOAD && !operations.equals(Set.of(Operation.UPLOAD))) {
        throw new InvalidArgumentException("TORN_UPLOAD applies to the UPLOAD operation only");
      }
    }

    /** The next {@code times} requests of {@code operation} on any key fail with {@code fault}. */
    public static FaultRule next(Operation operation, Fault fault, int times) {
      return new FaultRule(Set.of(operation), "", fault, times);
    }
  }

  /** One fault that was injected, for assertions and logs. */
  public record InjectedFault(Instant at, Operation operation, String key, Fault fault) {}

  private final ObjectStore delegate;
  private final long seed;
  private final Duration fixedLatency;
  private final Duration latencyJitter;
  private final long bytesPerSecond;
  private final Duration timeout;
  private final long tornUploadMaxBytes;
  private final Map<Operation, Map<Fault, Double>> probabilities;
  private final boolean dropConditions;
  private final Sleeper sleeper;
  private final Clock clock;
  private final List<ActiveRule> rules = new CopyOnWriteArrayList<>();
  private final Map<Operation, AtomicLong> counts = new EnumMap<>(Operation.class);
  private final Map<String, AtomicLong> sequences = new ConcurrentHashMap<>();
  private final List<InjectedFault> injected = new CopyOnWriteArrayList<>();

  private record ActiveRule(FaultRule rule, AtomicInteger remaining) {}

  private FaultInjectingObjectStore(Builder b) {
    this.delegate = b.delegate;
    this.seed = b.seed;
    this.fixedLatency = b.fixedLatency;
    this.latencyJitter = b.latencyJitter;
    this.bytesPerSecond = b.bytesPerSecond;
    this.timeout = b.timeout;
    this.tornUploadMaxBytes = b.tornUploadMaxBytes;
    this.dropConditions = b.dropConditions;
    this.sleeper = b.sleeper;
    this.clock = b.clock;
    Map<Operation, Map<Fault, Double>> copy = new EnumMap<>(Operation.class);
    b.probabilities.forEach((op, faults) -> copy.put(op, new EnumMap<>(faults)));
    this.probabilities = copy;
    for (Operation op : Operation.values()) {
      counts.put(op, new AtomicLong());
    }
    b.rules.forEach(this::addRule);
  }

  /** A builder around {@code delegate}. */
  public static Builder builder(ObjectStore delegate) {
    return new Builder(delegate);
  }

  /**
   * Configures a {@link FaultInjectingObjectStore}. Defaults: seed 0, no latency, unlimited
   * bandwidth, no faults, conditions honoured, 30 s timeouts, real-time sleeping, system clock.
   *
   * <p>Thread-safety: not thread-safe; build on one thread.
   */
  public static final class Builder {
    private final ObjectStore delegate;
    private long seed;
    private Duration fixedLatency = Duration.ZERO;
    private Duration latencyJitter = Duration.ZERO;
    private long bytesPerSecond;
    private Duration timeout = Duration.ofSeconds(30);
    private long tornUploadMaxBytes = 64 * 1024;
    private final Map<Operation, Map<Fault, Double>> probabilities = new EnumMap<>(Operation.class);
    private final List<FaultRule> rules = new ArrayList<>();
    private boolean dropConditions;
    private Sleeper sleeper = Sleeper.SYSTEM;
    private Clock clock = Clock.systemUTC();

    private Builder(ObjectStore delegate) {
      this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The seed every random choice derives from. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Each request first waits {@code fixed} plus a seeded uniform share of {@code jitter}. */
    public Builder latency(Duration fixed, Duration jitter) {
      if (fixed.isNegative() || jitter.isNegative()) {
        throw new InvalidArgumentException("latency must not be negative: " + fixed + " + " + jitter);
      }
      this.fixedLatency = fixed;
      this.latencyJitter = jitter;
      return this;
    }

    /**
     * Transferred bytes (request and response bodies) take {@code bytes / bytesPerSecond} each,
     * per request, as if every request had its own connection of that speed; 0 means unlimited.
     */
    public Builder bandwidth(long bytesPerSecond) {
      if (bytesPerSecond < 0) {
        throw new InvalidArgumentException("bandwidth must not be negative: " + bytesPerSecond);
      }
      this.bytesPerSecond = bytesPerSecond;
      return this;
    }

    /** How long a {@link Fault#TIMEOUT} hangs before it fails. */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new InvalidArgumentException("timeout must not be negative: " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** A torn upload dies after a seeded number of bytes in [1, maxBytes] (or at complete if fewer). */
    public Builder tornUploadMaxBytes(long maxBytes) {
      if (maxBytes < 1) {
        throw new InvalidArgumentException("tornUploadMaxBytes must be at least 1: " + maxBytes);
      }
      this.tornUploadMaxBytes = maxBytes;
      return this;
    }

    /** Requests of {@code operation} fail with {@code fault} with this probability. */
    public Builder faultProbability(Operation operation, Fault fault, double probability) {
      if (!(probability >= 0 && probability <= 1)) {
        throw new InvalidArgumentException("probability must be within [0, 1], was " + probability);
      }
      if (fault == Fault.TORN_UPLOAD && operation != Operation.UPLOAD) {
        throw new InvalidArgumentException("TORN_UPLOAD applies to the UPLOAD operation only");
      }
      Map<Fault, Double> faults = probabilities.computeIfAbsent(operation, o -> new EnumMap<>(Fault.class));
      faults.put(fault, probability);
      double total = faults.values().stream().mapToDouble(Double::doubleValue).sum();
      if (total > 1 + 1e-9) {
        throw new InvalidArgumentException(
            "fault probabilities of " + operation + " add up to " + total + ", more than 1");
      }
      return this;
    }

    /** Every operation the fault applies to fails with it with this probability. */
    public Builder faultProbability(Fault fault, double probability) {
      for (Operation operation : Operation.values()) {
        if (fault != Fault.TORN_UPLOAD || operation == Operation.UPLOAD) {
          faultProbability(operation, fault, probability);
        }
      }
      return this;
    }

    /** A scripted fault, applied before any probability. */
    public Builder rule(FaultRule rule) {
      rules.add(Objects.requireNonNull(rule, "rule"));
      return this;
    }

    /**
     * Turns create-only writes and compare-and-swaps into unconditional overwrites that always
     * report success: a store that ignores {@code If-None-Match} / {@code If-Match}.
     */
    public Builder dropConditions(boolean dropConditions) {
      this.dropConditions = dropConditions;
      return this;
    }

    /** How latency, bandwidth and timeouts wait (use a virtual-time sleeper in simulations). */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** Timestamps of {@link #injectedFaults()}. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public FaultInjectingObjectStore build() {
      return new FaultInjectingObjectStore(this);
    }
  }

  // --- control and observation -------------------------------------------------------------

  /** Adds a scripted fault at run time, after the ones already queued. */
  public void addRule(FaultRule rule) {
    rules.add(new ActiveRule(Objects.requireNonNull(rule, "rule"), new AtomicInteger(rule.times())));
  }

  /** Forgets scripted rules that have not fired yet. */
  public void clearRules() {
    rules.clear();
  }

  /** Requests of {@code operation} so far. */
  public long requestCount(Operation operation) {
    return counts.get(operation).get();
  }

  /** Requests of every operation of {@code type} so far. */
  public long requestCount(RequestType type) {
    long sum = 0;
    for (Operation op : Operation.values()) {
      if (op.type() == type) {
        sum += counts.get(op).get();
      }
    }
    return sum;
  }

  /** A snapshot of the counts by request type. */
  public Map<RequestType, Long> requestCounts() {
    Map<RequestType, Long> out = new EnumMap<>(RequestType.class);
    for (RequestType type : RequestType.values()) {
      out.put(type, requestCount(type));
    }
    return out;
  }

  /** Sets every request counter back to zero (fault decisions are unaffected). */
  public void resetCounts() {
    counts.values().forEach(c -> c.set(0));
  }

  /** The faults injected so far, in the order they struck. */
  public List<InjectedFault> injectedFaults() {
    return List.copyOf(injected);
  }

  /** The wrapped store. */
  public ObjectStore delegate() {
    return delegate;
  }

  // --- the store ---------------------------------------------------------------------------

  @Override
  public StoredObject get(String key) {
    return request(Operation.GET, key, 0, () -> delegate.get(key), o -> o.bytes().length);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    return request(Operation.GET_RANGE, key, 0, () -> delegate.getRange(key, offset, length), b -> b.length);
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    return request(Operation.HEAD, key, 0, () -> delegate.head(key), m -> 0);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    return request(
        Operation.GET_IF_CHANGED,
        key,
        0,
        () -> delegate.getIfChanged(key, known),
        r -> r instanceof ConditionalGetResult.Changed c ? c.object().bytes().length : 0);
  }

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    return request(
        Operation.PUT_IF_ABSENT,
        key,
        bytes.length,
        () ->
            dropConditions
                ? new CreateResult.Created(overwrite(key, bytes))
                : delegate.putIfAbsent(key, bytes),
        r -> 0);
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    return request(
        Operation.COMPARE_AND_SWAP,
        key,
        bytes.length,
        () ->
            dropConditions
                ? new CasResult.Swapped(overwrite(key, bytes))
                : delegate.compareAndSwap(key, expected, bytes),
        r -> 0);
  }

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    return request(Operation.LIST, prefix, 0, () -> delegate.list(prefix, afterKey, limit), p -> 0);
  }

  @Override
  public void delete(Collection<String> keys) {
    for (String key : List.copyOf(keys)) {
      request(
          Operation.DELETE,
          key,
          0,
          () -> {
            delegate.delete(List.of(key));
            return Boolean.TRUE;
          },
          r -> 0);
    }
  }

  /** A write that ignores the key's state: what a store without conditions does. */
  private VersionToken overwrite(String key, byte[] bytes) {
    for (int attempt = 0; attempt < 100; attempt++) {
      Optional<ObjectMetadata> current = delegate.head(key);
      if (current.isEmpty()) {
        if (delegate.putIfAbsent(key, bytes) instanceof CreateResult.Created created) {
          return created.token();
        }
      } else if (delegate.compareAndSwap(key, current.get().token(), bytes) instanceof CasResult.Swapped s) {
        return s.token();
      }
    }
    throw new TransientStoreException("unconditional write of " + key + " kept losing races", false);
  }

  private <T> T request(
      Operation op, String key, long sentBytes, Supplier<T> call, ToLongFunction<T> receivedBytes) {
    long sequence = begin(op, key);
    Fault fault = decide(op, key, sequence);
    if (fault == Fault.ERROR_BEFORE) {
      throw inject(op, key, fault, false);
    }
    if (fault == Fault.TIMEOUT) {
      pause(timeout);
      if (op.isWrite() && random(op, key, sequence, 3) < 0.5) {
        call.get();
      }
      throw inject(op, key, fault, op.isWrite());
    }
    transfer(sentBytes);
    T result = call.get();
    transfer(receivedBytes.applyAsLong(result));
    if (fault == Fault.LOST_REPLY) {
      throw inject(op, key, fault, op.isWrite());
    }
    return result;
  }

  /** Counts the request, sleeps its latency and returns its per-key sequence number. */
  private long begin(Operation op, String key) {
    counts.get(op).incrementAndGet();
    long sequence = sequences.computeIfAbsent(op.ordinal() + "\u0000" + key, k -> new AtomicLong()).getAndIncrement();
    long jitter = (long) (latencyJitter.toNanos() * random(op, key, sequence, 1));
    pause(fixedLatency.plusNanos(jitter));
    return sequence;
  }

  private @Nullable Fault decide(Operation op, String key, long sequence) {
    for (ActiveRule active : rules) {
      FaultRule rule = active.rule();
      if (rule.operations().contains(op) && key.startsWith(rule.keyPrefix())) {
        if (active.remaining().getAndUpdate(n -> Math.max(n - 1, 0)) > 0) {
          return rule.fault();
        }
      }
    }
    Map<Fault, Double> faults = probabilities.get(op);
    if (faults == null) {
      return null;
    }
    double draw = random(op, key, sequence, 2);
    double cumulative = 0;
    for (Map.Entry<Fault, Double> entry : faults.entrySet()) {
      cumulative += entry.getValue();
      if (draw < cumulative) {
        return entry.getKey();
      }
    }
    return null;
  }

  private TransientStoreException inject(Operation op, String key, Fault fault, boolean mayHaveTakenEffect) {
    injected.add(new InjectedFault(clock.instant(), op, key, fault));
    return new TransientStoreException(
        "injected fault " + fault + " on " + op + " " + key
            + (mayHaveTakenEffect ? " (the request may have taken effect)" : ""),
        mayHaveTakenEffect);
  }

  private void transfer(long bytes) {
    if (bytesPerSecond > 0 && bytes > 0) {
      pause(Duration.ofNanos((long) ((double) bytes * 1e9 / bytesPerSecond)));
    }
  }

  private void pause(Duration duration) {
    if (duration.isZero()) {
      return;
    }
    try {
      sleeper.sleep(duration);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientStoreException("interrupted during injected latency", false, e);
    }
  }

  /** A uniform double in [0, 1) from the seed, the request's identity and a purpose {@code salt}. */
  private double random(Operation op, String key, long sequence, int salt) {
    long h = seed;
    h = mix(h ^ op.ordinal());
    for (int i = 0; i < key.length(); i++) {
      h = (h ^ key.charAt(i)) * 0x100000001B3L;
    }
    h = mix(h ^ sequence);
    h = mix(h ^ salt);
    return (h >>> 11) * 0x1.0p-53;
  }

  /** SplitMix64's finaliser. */
  private static long mix(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  // --- uploads -----------------------------------------------------------------------------

  @Override
  public ObjectUpload startUpload(String key) {
    long sequence = begin(Operation.UPLOAD, key);
    Fault fault = decide(Operation.UPLOAD, key, sequence);
    long tornAfter = 1 + (long) (random(Operation.UPLOAD, key, sequence, 4) * tornUploadMaxBytes);
    boolean timeoutApplies = random(Operation.UPLOAD, key, sequence, 3) < 0.5;
    if (fault == Fault.ERROR_BEFORE) {
      throw inject(Operation.UPLOAD, key, fault, false);
    }
    return dropConditions
        ? new UnconditionalUpload(key, fault, timeoutApplies)
        : new FaultyUpload(key, delegate.startUpload(key), fault, tornAfter, timeoutApplies);
  }

  private final class FaultyUpload implements ObjectUpload {
    private final String key;
    private final ObjectUpload upload;
    private final @Nullable Fault fault;
    private final long tornAfter;
    private final boolean timeoutApplies;
    private long written;
    private boolean dead;

    FaultyUpload(String key, ObjectUpload upload, @Nullable Fault fault, long tornAfter, boolean timeoutApplies) {
      this.key = key;
      this.upload = upload;
      this.fault = fault;
      this.tornAfter = tornAfter;
      this.timeoutApplies = timeoutApplies;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      requireAlive();
      if (fault == Fault.TORN_UPLOAD && written + length >= tornAfter) {
        int part = (int) Math.max(0, Math.min(length, tornAfter - written));
        transfer(part);
        upload.write(bytes, offset, part);
        written += part;
        throw die();
      }
      transfer(length);
      upload.write(bytes, offset, length);
      written += length;
    }

    /** Bytes handed to the delegate, including those of an upload that died. */
    @Override
    public long bytesWritten() {
      return written;
    }

    @Override
    public CreateResult complete() {
      requireAlive();
      if (fault == Fault.TORN_UPLOAD) {
        throw die();
      }
      if (fault == Fault.TIMEOUT) {
        pause(timeout);
        if (timeoutApplies) {
          upload.complete();
        } else {
          upload.abort();
        }
        dead = true;
        throw inject(Operation.UPLOAD, key, fault, true);
      }
      CreateResult result = upload.complete();
      if (fault == Fault.LOST_REPLY) {
        dead = true;
        throw inject(Operation.UPLOAD, key, fault, true);
      }
      return result;
    }

    private TransientStoreException die() {
      dead = true;
      upload.abort();
      return inject(Operation.UPLOAD, key, Fault.TORN_UPLOAD, false);
    }

    private void requireAlive() {
      if (dead) {
        throw new TransientStoreException("upload of " + key + " already failed by an injected fault", false);
      }
    }

    @Override
    public void abort() {
      upload.abort();
    }
  }

  /** With conditions dropped, an upload overwrites whatever is there at complete. */
  private final class UnconditionalUpload implements ObjectUpload {
    private final String key;
    private final @Nullable Fault fault;
    private final boolean timeoutApplies;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private boolean finished;

    UnconditionalUpload(String key, @Nullable Fault fault, boolean timeoutApplies) {
      this.key = key;
      this.fault = fault;
      this.timeoutApplies = timeoutApplies;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      if (finished) {
        throw new TransientStoreException("upload of " + key + " already finished", false);
      }
      transfer(length);
      buffer.write(bytes, offset, length);
    }

    @Override
    public long bytesWritten() {
      return buffer.size();
    }

    @Override
    public CreateResult complete() {
      finished = true;
      if (fault == Fault.TORN_UPLOAD) {
        throw inject(Operation.UPLOAD, key, fault, false);
      }
      if (fault == Fault.TIMEOUT) {
        pause(timeout);
        if (timeoutApplies) {
          overwrite(key, buffer.toByteArray());
        }
        throw inject(Operation.UPLOAD, key, fault, true);
      }
      VersionToken token = overwrite(key, buffer.toByteArray());
      if (fault == Fault.LOST_REPLY) {
        throw inject(Operation.UPLOAD, key, fault, true);
      }
      return new CreateResult.Created(token);
    }

    @Override
    public void abort() {
      finished = true;
      buffer.reset();
    }
  }

  @Override
  public String describe() {
    return "fault-injecting " + delegate.describe();
  }

  @Override
  public String toString() {
    return describe();
  }

  /** Does not close the delegate: the caller passed it in and still owns it. */
  @Override
  public void close() {}
}
