package dev.objlog.store;

import java.util.Collection;
import java.util.Optional;

/**
 * The only door between objlog and the outside world: a flat key space of immutable-or-CAS-replaced
 * objects, as S3, GCS, Azure Blob, a local directory or memory provide it.
 *
 * <p>Keys are {@code /}-separated, non-empty, and compared as bytes (listing order is
 * byte-lexicographic over their UTF-8 form). Every write is conditional: create-only or
 * compare-and-swap against a {@link VersionToken}. Adapters retry transient failures themselves
 * (with exponential backoff and jitter, bounded per request by a timeout) and batch deletes; a
 * {@link TransientStoreException} reaching the caller means the retry budget is spent.
 *
 * <p>Errors: {@link ObjectNotFoundException} for reads of a missing key, {@link
 * PermanentStoreException} for what retrying cannot fix, {@link TransientStoreException} once
 * retries are exhausted, and {@link IndeterminateStoreException} for a write that may or may not
 * have taken effect. Conditions that do not hold are answers ({@link CreateResult}, {@link
 * CasResult}), not exceptions.
 *
 * <p>Thread-safety: implementations are safe for concurrent use by many threads, and conditional
 * writes to one key are atomic with respect to each other (exactly one of several racing
 * create-only writes or compare-and-swaps with the same token wins).
 */
public interface ObjectStore extends AutoCloseable {

  /**
   * Reads a whole object and the metadata of the version read.
   *
   * @throws ObjectNotFoundException when the key holds no object
   */
  StoredObject get(String key);

  /**
   * Reads {@code length} bytes from {@code offset}; fewer when the object ends first, none when
   * {@code offset} is at or past the end.
   *
   * @throws ObjectNotFoundException when the key holds no object
   */
  byte[] getRange(String key, long offset, int length);

  /** The object's metadata, or empty when the key holds no object. */
  Optional<ObjectMetadata> head(String key);

  /**
   * Reads the object only if its token differs from {@code known}; when it is unchanged nothing
   * but the answer is transferred. Pass {@link VersionToken#ABSENT} to read unconditionally.
   */
  ConditionalGetResult getIfChanged(String key, VersionToken known);

  /** Writes the object only if the key holds none. */
  CreateResult putIfAbsent(String key, byte[] bytes);

  /**
   * Replaces the object only if its current token is {@code expected}; {@link
   * VersionToken#ABSENT} means the key must hold no object. On conflict the answer carries the
   * current object (or none), so the caller can reconcile without another read.
   */
  CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes);

  /**
   * Starts a streaming, create-only upload. Nothing is visible under {@code key} until {@link
   * ObjectUpload#complete()} succeeds.
   */
  ObjectUpload startUpload(String key);

  /**
   * Lists objects whose keys start with {@code prefix}, strictly after {@code afterKey} when it is
   * given, in byte-lexicographic order, at most {@code limit} per page.
   */
  ListPage list(String prefix, String afterKey, int limit);

  /** The first page of a listing. */
  default ListPage list(String prefix, int limit) {
    return list(prefix, "", limit);
  }

  /** Deletes the keys; a key that holds no object counts as deleted. Adapters batch as they need. */
  void delete(Collection<String> keys);

  /** A short description for logs and errors: provider and location, never credentials. */
  String describe();

  /**
   * Proves against a scratch key under {@code prefix} that this store honours create-only writes
   * and compare-and-swap, and removes the scratch key again. Call it once at startup: a store or
   * gateway that silently ignores conditions would let two writers both "win".
   *
   * @throws ConditionalWritesNotHonouredException when a condition that must fail was accepted
   */
  default void verifyConditionalWrites(String prefix) {
    ConditionalWriteSelfTest.run(this, prefix);
  }

  /** Releases clients and threads the store created itself; never those a caller passed in. */
  @Override
  default void close() {}
}
