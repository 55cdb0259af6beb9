package dev.objlog.store.memory;

import dev.objlog.InvalidArgumentException;
import dev.objlog.store.KeyOrder;
import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link ObjectStore} held in memory, for tests and simulations.
 *
 * <p>Conditional writes are atomic: create-only is {@code putIfAbsent} and compare-and-swap is an
 * identity {@code replace} on a concurrent skip-list map, so exactly one of several racing writers
 * wins. The token is a store-wide generation ({@code "g<n>"}) taken from one counter, so it changes
 * on every write and never repeats, not even after a delete and a re-create. Listing is in
 * byte-lexicographic order of the keys' UTF-8 form (Unicode code point order, which differs from
 * {@link String#compareTo} for characters outside the Basic Multilingual Plane). Byte arrays are
 * copied on the way in and on the way out.
 *
 * <p>Thread-safety: safe for concurrent use by any number of threads.
 */
public final class MemoryObjectStore implements ObjectStore {

  /** Orders strings as their UTF-8 bytes compare, unsigned: by Unicode code point. */
  static final Comparator<String> BYTE_ORDER = KeyOrder.UTF8_BYTES;

  private final ConcurrentNavigableMap<String, Version> objects = new ConcurrentSkipListMap<>(BYTE_ORDER);
  private final AtomicLong generation = new AtomicLong();
  private final Clock clock;
  private final String name;

  /** A store on the system clock. */
  public MemoryObjectStore() {
    this(Clock.systemUTC());
  }

  /** A store whose {@code lastModified} times come from {@code clock}. */
  public MemoryObjectStore(Clock clock) {
    this(clock, "memory");
  }

  /**
   * @param clock the source of {@code lastModified} times
   * @param name shown by {@link #describe()}, to tell several stores apart in logs
   */
  public MemoryObjectStore(Clock clock, String name) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.name = Objects.requireNonNull(name, "name");
  }

  /**
   * One immutable version of an object. Compared by identity on purpose: {@code replace(key, old,
   * new)} must only succeed against the exact version the caller read.
   */
  private static final class Version {
    final byte[] bytes;
    final ObjectMetadata metadata;

    Version(byte[] bytes, ObjectMetadata metadata) {
      this.bytes = bytes;
      this.metadata = metadata;
    }

    StoredObject copy() {
      return new StoredObject(metadata, bytes.clone());
    }
  }

  private Version newVersion(String key, byte[] bytes) {
    VersionToken token = VersionToken.of("g" + generation.incrementAndGet());
    Instant now = clock.instant();
    return new Version(bytes, new ObjectMetadata(key, bytes.length, token, now));
  }

  private static String checkKey(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new PermanentStoreException("object keys must not be empty");
    }
    return key;
  }

  private Version existing(String key) {
    Version version = objects.get(checkKey(key));
    if (version == null) {
      throw new ObjectNotFoundException("no object " + key + " in " + describe());
    }
    return version;
  }

  @Override
  public StoredObject get(String key) {
    return existing(key).copy();
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new InvalidArgumentException(
          "range must have a non-negative offset and length, was " + offset + "+" + length);
    }
    byte[] bytes = existing(key).bytes;
    if (offset >= bytes.length) {
      return new byte[0];
    }
    int from = (int) offset;
    return Arrays.copyOfRange(bytes, from, (int) Math.min((long) from + length, bytes.length));
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    return Optional.ofNullable(objects.get(checkKey(key))).map(v -> v.metadata);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    Objects.requireNonNull(known, "known");
    Version version = objects.get(checkKey(key));
    if (version == null) {
      return new ConditionalGetResult.Missing();
    }
    if (!known.isAbsent() && version.metadata.token().equals(known)) {
      return new ConditionalGetResult.Unchanged();
    }
    return new ConditionalGetResult.Changed(version.copy());
  }

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    checkKey(key);
    Version version = newVersion(key, bytes.clone());
    return objects.putIfAbsent(key, version) == null
        ? new CreateResult.Created(version.metadata.token())
        : new CreateResult.AlreadyExists();
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    checkKey(key);
    Objects.requireNonNull(expected, "expected");
    byte[] copy = bytes.clone();
    if (expected.isAbsent()) {
      Version version = newVersion(key, copy);
      Version current = objects.putIfAbsent(key, version);
      return current == null
          ? new CasResult.Swapped(version.metadata.token())
          : new CasResult.Conflict(current.copy());
    }
    Version current = objects.get(key);
    if (current == null || !current.metadata.token().equals(expected)) {
      return new CasResult.Conflict(current == null ? null : current.copy());
    }
    Version version = newVersion(key, copy);
    if (objects.replace(key, current, version)) {
      return new CasResult.Swapped(version.metadata.token());
    }
    // Somebody else replaced or deleted the version we matched; report what is there now.
    Version now = objects.get(key);
    return new CasResult.Conflict(now == null ? null : now.copy());
  }

  @Override
  public ObjectUpload startUpload(String key) {
    return new MemoryUpload(checkKey(key));
  }

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(afterKey, "afterKey");
    if (limit < 1) {
      throw new InvalidArgumentException("list limit must be at least 1, was " + limit);
    }
    ConcurrentNavigableMap<String, Version> view =
        BYTE_ORDER.compare(afterKey, prefix) >= 0
            ? objects.tailMap(afterKey, false)
            : objects.tailMap(prefix, true);
    List<ObjectMetadata> entries = new ArrayList<>(Math.min(limit, 64));
    for (Map.Entry<String, Version> entry : view.entrySet()) {
      if (!entry.getKey().startsWith(prefix)) {
        break;
      }
      if (entries.size() == limit) {
        return new ListPage(entries, entries.get(entries.size() - 1).key());
      }
      entries.add(entry.getValue().metadata);
    }
    return new ListPage(entries, null);
  }

  @Override
  public void delete(Collection<String> keys) {
    for (String key : keys) {
      objects.remove(checkKey(key));
    }
  }

  @Override
  public String describe() {
    return "memory store '" + name + "'";
  }

  @Override
  public String toString() {
    return describe();
  }

  /** Buffers privately; one {@code putIfAbsent} at complete makes it visible. */
  private final class MemoryUpload implements ObjectUpload {
    private final String key;
    /** Each write's bytes, copied once; joined once at completion (no growing buffer re-copying). */
    private final List<byte[]> parts = new ArrayList<>();
    private long size;
    private boolean finished;

    MemoryUpload(String key) {
      this.key = key;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
      if (offset < 0 || length < 0 || offset > bytes.length - length) {
        throw new InvalidArgumentException(
            "write range " + offset + "+" + length + " is outside an array of " + bytes.length);
      }
      if (finished) {
        throw new PermanentStoreException("upload of " + key + " was already completed or aborted");
      }
      if (size + length > Integer.MAX_VALUE - 8) {
        throw new PermanentStoreException("upload of " + key + " exceeds what a memory store object can hold");
      }
      parts.add(Arrays.copyOfRange(bytes, offset, offset + length));
      size += length;
    }

    @Override
    public long bytesWritten() {
      return size;
    }

    @Override
    public CreateResult complete() {
      if (finished) {
        throw new PermanentStoreException("upload of " + key + " was already completed or aborted");
      }
      finished = true;
      byte[] whole = new byte[(int) size];
      int at = 0;
      for (byte[] part : parts) {
        System.arraycopy(part, 0, whole, at, part.length);
        at += part.length;
      }
      parts.clear();
      Version version = newVersion(key, whole);
      return objects.putIfAbsent(key, version) == null
          ? new CreateResult.Created(version.metadata.token())
          : new CreateResult.AlreadyExists();
    }

    @Override
    public void abort() {
      finished = true;
      parts.clear();
    }
  }
}
