package dev.objlog.coordination;

import dev.objlog.InvalidArgumentException;
import dev.objlog.store.CasResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.Sleeper;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One small document in the bucket that is changed only by compare-and-swap. Two ways to change
 * it: {@link #update} reads it, decodes it, lets the caller decide and swaps over the version read,
 * re-applying the change after a conflict; {@link #swap} swaps over a version the caller holds and
 * treats any other writer as having won.
 *
 * <p>A store error that may have taken effect (an {@link IndeterminateStoreException}; a {@link
 * TransientStoreException} too unless the budget is {@link Retries#indeterminateOnly}) is settled by
 * reading the document back: bytes equal to the ones this call wrote are this call's write and
 * count as success; anything else is the document for the next attempt. A conflict whose document
 * holds this call's bytes (the store adapter repeated a swap whose reply was lost) is also success.
 * Between attempts it pauses {@code initialBackoff}, doubling up to {@code maxBackoff}. Each
 * document brings its own key, bytes (the codec) and budget.
 *
 * <p>Error contract: the codec's and the change's exceptions pass through unchanged (the change is
 * where a document refuses, e.g. a regression), and so do store errors the budget does not settle
 * ({@link #update} counts a settled failed read as a failed attempt; {@link #swap} lets an error of
 * its read back through); when every attempt conflicted or failed, {@link ExhaustedException}, a
 * final {@link TransientStoreException} whose cause is the last attempt's store error (none if it
 * lost a race).
 *
 * <p>Thread-safety: safe for concurrent use within and across processes if the codec is (the
 * store's compare-and-swap is atomic); the change function may run several times per call.
 *
 * @param <T> the decoded document
 */
public final class CasDocument<T> {

  /** Bytes to document and back. Decoding failures are the document's own exceptions. */
  public interface Codec<T> {
    T decode(byte[] bytes);

    byte[] encode(T value);

    static <T> Codec<T> of(Function<byte[], T> decoder, Function<T, byte[]> encoder) {
      Objects.requireNonNull(decoder, "decoder");
      Objects.requireNonNull(encoder, "encoder");
      return new Codec<>() {
        @Override
        public T decode(byte[] bytes) {
          return decoder.apply(bytes);
        }

        @Override
        public byte[] encode(T value) {
          return encoder.apply(value);
        }
      };
    }
  }

  /**
   * How many attempts a call makes, how long it pauses between them (a zero backoff does not
   * pause), and whether a {@link TransientStoreException} is settled and retried like an {@link
   * IndeterminateStoreException} or passes through at once.
   */
  public record Retries(int attempts, Duration initialBackoff, Duration maxBackoff, Sleeper sleeper,
      boolean retryTransient) {
    public Retries {
      if (attempts < 1) {
        throw new InvalidArgumentException("a document needs at least one attempt, was " + attempts);
      }
      Objects.requireNonNull(initialBackoff, "initialBackoff");
      Objects.requireNonNull(maxBackoff, "maxBackoff");
      Objects.requireNonNull(sleeper, "sleeper");
    }

    /** {@code attempts} attempts, {@code initialBackoff} apart, doubling up to {@code maxBackoff}. */
    public static Retries backoff(int attempts, Duration initialBackoff, Duration maxBackoff,
        Sleeper sleeper) {
      return new Retries(attempts, initialBackoff, maxBackoff, sleeper, true);
    }

    /** {@code attempts} attempts back to back. */
    public static Retries immediate(int attempts) {
      return new Retries(attempts, Duration.ZERO, Duration.ZERO, Sleeper.SYSTEM, true);
    }

    /** The same budget, letting a {@link TransientStoreException} pass through at once. */
    public Retries indeterminateOnly() {
      return new Retries(attempts, initialBackoff, maxBackoff, sleeper, false);
    }

    Duration pauseAfter(int attempt) {
      long ms = Math.min(maxBackoff.toMillis(),
          initialBackoff.toMillis() << Math.min(attempt - 1, 10));
      return Duration.ofMillis(ms);
    }
  }

  /**
   * What the change function decided for the document it was shown.
   *
   * @param <T> the document
   * @param <R> what {@link #update} returns
   */
  public sealed interface Change<T, R> {
    /** Leave the document as it is and answer {@code result}. */
    record Keep<T, R>(R result) implements Change<T, R> {}

    /** Swap in {@code value}; once it is stored, answer {@code result}. */
    record Write<T, R>(T value, R result) implements Change<T, R> {
      public Write {
        Objects.requireNonNull(value, "value");
      }
    }
  }

  public static <T, R> Change<T, R> keep(R result) {
    return new Change.Keep<>(result);
  }

  public static <T, R> Change<T, R> write(T value, R result) {
    return new Change.Write<>(value, result);
  }

  /**
   * The answer of {@link #update}.
   *
   * @param result the change's result
   * @param written whether this call stored the document
   * @param token the version of the document this answer is about ({@link VersionToken#ABSENT} if
   *     none)
   */
  public record Updated<R>(R result, boolean written, VersionToken token) {}

  /** Every attempt of a call conflicted or failed. */
  public static final class ExhaustedException extends TransientStoreException {
    private static final long serialVersionUID = 1L;
    private final transient @Nullable StoredObject lastSeen;

    ExhaustedException(String message, @Nullable StoredObject lastSeen,
        @Nullable RuntimeException lastError) {
      super(message, false, lastError);
      this.lastSeen = lastSeen;
    }

    /** The document as last seen, null if absent or unknown. */
    public @Nullable StoredObject lastSeen() {
      return lastSeen;
    }
  }

  private final ObjectStore store;
  private final String key;
  private final String name;
  private final Codec<T> codec;
  private final Retries retries;

  /**
   * @param name what the document is, for messages ("retention mailbox")
   */
  public CasDocument(ObjectStore store, String key, String name, Codec<T> codec, Retries retries) {
    this.store = Objects.requireNonNull(store, "store");
    this.key = Objects.requireNonNull(key, "key");
    this.name = Objects.requireNonNull(name, "name");
    this.codec = Objects.requireNonNull(codec, "codec");
    this.retries = Objects.requireNonNull(retries, "retries");
  }

  public String key() {
    return key;
  }

  /** The stored document, decoded. */
  public Optional<T> read() {
    StoredObject object = getOrNull();
    return object == null ? Optional.empty() : Optional.of(codec.decode(object.bytes()));
  }

  /**
   * Shows {@code change} the stored document (empty if absent) and stores what it decides, as the
   * class comment says.
   *
   * @throws ExhaustedException if no attempt settled
   */
  public <R> Updated<R> update(Function<Optional<T>, Change<T, R>> change) {
    @Nullable StoredObject current = null;
    boolean known = false;
    @Nullable RuntimeException lastErr = null;
    for (int attempt = 1; attempt <= retries.attempts(); attempt++) {
      try {
        if (!known) {
          current = getOrNull();
        }
        known = false;
        Change<T, R> decided = change.apply(current == null
            ? Optional.empty() : Optional.of(codec.decode(current.bytes())));
        if (decided instanceof Change.Keep<T, R> keep) {
          return new Updated<>(keep.result(), false,
              current == null ? VersionToken.ABSENT : current.token());
        }
        Change.Write<T, R> w = (Change.Write<T, R>) decided;
        byte[] bytes = codec.encode(w.value());
        VersionToken expected = current == null ? VersionToken.ABSENT : current.token();
        lastErr = null;
        try {
          CasResult result = store.compareAndSwap(key, expected, bytes);
          if (result instanceof CasResult.Swapped swapped) {
            return new Updated<>(w.result(), true, swapped.token());
          }
          current = ((CasResult.Conflict) result).current();
        } catch (IndeterminateStoreException | TransientStoreException e) {
          lastErr = settled(e);
          current = getOrNull();
        }
        known = true;
        if (current != null && Arrays.equals(current.bytes(), bytes)) {
          return new Updated<>(w.result(), true, current.token());
        }
      } catch (IndeterminateStoreException | TransientStoreException e) {
        // A failed read: the next attempt reads again.
        lastErr = settled(e);
        known = false;
      }
      if (attempt < retries.attempts()) {
        pause(attempt);
      }
    }
    throw new ExhaustedException(name + " " + key + " could not be written after "
        + retries.attempts() + " attempts", known ? current : null, lastErr);
  }

  /** The answer of {@link #swap}. */
  public sealed interface Swap {
    /** The document now holds the value swapped in, at {@code token}. */
    record Swapped(VersionToken token) implements Swap {}

    /** Someone else changed the document first; {@code current} is what is stored (null: absent). */
    record Lost(@Nullable StoredObject current) implements Swap {}
  }

  /**
   * Swaps {@code value} in over the version {@code held} and nothing else: no re-read, no change
   * re-applied. A conflict or a read-back showing this call's bytes is {@link Swap.Swapped}; a
   * read-back showing {@code held} still stored means the swap did not land and is tried again;
   * anything else is {@link Swap.Lost}.
   *
   * @throws ExhaustedException if every attempt failed without landing
   */
  public Swap swap(VersionToken held, T value) {
    Objects.requireNonNull(held, "held");
    byte[] bytes = codec.encode(value);
    @Nullable RuntimeException lastErr = null;
    for (int attempt = 1; attempt <= retries.attempts(); attempt++) {
      @Nullable StoredObject current;
      try {
        CasResult result = store.compareAndSwap(key, held, bytes);
        if (result instanceof CasResult.Swapped swapped) {
          return new Swap.Swapped(swapped.token());
        }
        current = ((CasResult.Conflict) result).current();
      } catch (IndeterminateStoreException | TransientStoreException e) {
        lastErr = settled(e);
        current = getOrNull();
        VersionToken now = current == null ? VersionToken.ABSENT : current.token();
        if (now.equals(held)) {
          if (attempt < retries.attempts()) {
            pause(attempt);
          }
          continue;
        }
      }
      if (current != null && Arrays.equals(current.bytes(), bytes)) {
        return new Swap.Swapped(current.token());
      }
      return new Swap.Lost(current);
    }
    throw new ExhaustedException(name + " " + key + " could not be written after "
        + retries.attempts() + " attempts", null, lastErr);
  }

  /** {@code e} if this budget settles it, else thrown at once. */
  private RuntimeException settled(RuntimeException e) {
    if (e instanceof TransientStoreException && !retries.retryTransient()) {
      throw e;
    }
    return e;
  }

  private void pause(int attempt) {
    Duration pause = retries.pauseAfter(attempt);
    if (pause.isZero()) {
      return;
    }
    try {
      retries.sleeper().sleep(pause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientStoreException("interrupted while retrying a write of " + name + " " + key,
          false, e);
    }
  }

  private @Nullable StoredObject getOrNull() {
    try {
      return store.get(key);
    } catch (ObjectNotFoundException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "CasDocument[" + name + " " + key + "]";
  }
}
