package dev.objlog.store;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * The settings every cloud store adapter (S3, GCS, Azure) shares: how it retries ({@link
 * RetryPolicy}, {@link Sleeper}, jitter source), how fast it may send requests (a rate on a {@link
 * Ticker}), and the storage class of segment objects. Each provider's {@code Builder} extends this
 * and adds what only it has (client, endpoint, credentials, part sizes, encryption). The
 * {@code configured...} and {@code new...} methods are for the adapters that read these settings.
 *
 * <p>Thread-safety: not thread-safe; configure on one thread, then build.
 *
 * @param <B> the provider's builder, returned by every setter so that calls chain
 */
public abstract class CloudStoreBuilder<B extends CloudStoreBuilder<B>> {
  /** The key suffix of segment objects (FORMAT.md §3.3), the only objects a storage class applies to. */
  public static final String SEGMENT_SUFFIX = ".plseg";

  private RetryPolicy retryPolicy = RetryPolicy.DEFAULT;
  private Sleeper sleeper = Sleeper.SYSTEM;
  private Ticker ticker = Ticker.SYSTEM;
  private RandomGenerator random = ThreadLocalRandom.current();
  private double maxRequestsPerSecond;
  private @Nullable String segmentStorageClass;

  protected CloudStoreBuilder() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /** Tries, backoff and the per-request timeout; default {@link RetryPolicy#DEFAULT}. */
  public final B retryPolicy(RetryPolicy retryPolicy) {
    this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
    return self();
  }

  /** How backoff and rate-limit waits sleep; default real time. */
  public final B sleeper(Sleeper sleeper) {
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    return self();
  }

  /** Elapsed time, which the request rate limit spaces requests on; default {@link Ticker#SYSTEM}. */
  public final B ticker(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    return self();
  }

  /**
   * Spaces rate-limited requests on {@code clock}.
   *
   * @deprecated a wall clock stepped back stalls requests until it catches up; use {@link
   *     #ticker(Ticker)}
   */
  @Deprecated
  public final B clock(Clock clock) {
    return ticker(RequestRateLimiter.ticker(clock));
  }

  /** The source of backoff jitter; default {@link ThreadLocalRandom}. */
  public final B random(RandomGenerator random) {
    this.random = Objects.requireNonNull(random, "random");
    return self();
  }

  /** Spaces requests (every try counts) to at most this many per second; 0 (the default) = no limit. */
  public final B maxRequestsPerSecond(double perSecond) {
    RequestRateLimiter.of(perSecond, Ticker.SYSTEM, Sleeper.SYSTEM); // validates
    this.maxRequestsPerSecond = perSecond;
    return self();
  }

  /**
   * The storage class (Azure: access tier) written on segment objects, the keys ending in {@value
   * #SEGMENT_SUFFIX}; catalog, head and mailbox objects keep the bucket's default, because they
   * are rewritten and read constantly. Default: none sent, so the bucket's default applies. The
   * name is the provider's own ({@code STANDARD_IA}, {@code NEARLINE}, {@code Cool}), in any case.
   *
   * @throws IllegalArgumentException for a name the provider does not know, or a class whose
   *     objects cannot be read without a restore
   */
  public final B segmentStorageClass(String storageClass) {
    Objects.requireNonNull(storageClass, "storageClass");
    if (storageClass.isBlank()) {
      throw new IllegalArgumentException("a segment storage class must not be blank");
    }
    checkSegmentStorageClass(storageClass.strip());
    this.segmentStorageClass = storageClass.strip();
    return self();
  }

  /**
   * Throws {@link IllegalArgumentException} (see {@link #unknownStorageClass}) unless the
   * provider knows {@code name} and serves its objects without a restore.
   */
  protected abstract void checkSegmentStorageClass(String name);

  /** The policy given to {@link #retryPolicy}, for clients whose own timeouts follow it. */
  public final RetryPolicy configuredRetryPolicy() {
    return retryPolicy;
  }

  /** The storage class of segment objects, or null for the bucket's default. */
  public final @Nullable String configuredSegmentStorageClass() {
    return segmentStorageClass;
  }

  /** A retrier with the configured policy, sleeper and jitter. */
  public final Retrier newRetrier() {
    return new Retrier(retryPolicy, sleeper, random);
  }

  /** A rate limiter with the configured rate, ticker and sleeper. */
  public final RequestRateLimiter newRateLimiter() {
    return RequestRateLimiter.of(maxRequestsPerSecond, ticker, sleeper);
  }

  /** Whether {@code key} names a segment object, the objects {@link #segmentStorageClass} applies to. */
  public static boolean isSegmentKey(String key) {
    return key.endsWith(SEGMENT_SUFFIX);
  }

  /**
   * The error of a storage class the provider does not accept, with the names it does.
   *
   * @param provider e.g. "S3"
   * @param accepted the names to suggest
   */
  protected static IllegalArgumentException unknownStorageClass(String provider, String given, String accepted) {
    return new IllegalArgumentException(
        "'" + given + "' is not a storage class objlog can write " + provider + " segments with (segments"
            + " must stay readable without a restore); use one of " + accepted);
  }
}
