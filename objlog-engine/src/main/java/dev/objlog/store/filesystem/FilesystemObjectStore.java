package dev.objlog.store.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;

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
import dev.objlog.store.Retrier;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.Sleeper;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import dev.objlog.store.filesystem.Sidecar.FileIdentity;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * An {@link ObjectStore} in a local directory: the object {@code K} is the regular file {@code
 * <root>/K}, and a directory is a bucket. It is objlog's embedded default.
 *
 * <p>Keys are relative {@code /}-separated paths. A key that cannot be one regular file under the
 * root is refused with a {@link PermanentStoreException} whose message names the rule: absolute
 * keys, empty or {@code .}/{@code ..} segments, backslashes and NUL, segments ending in {@code
 * .tmp}, keys under {@code .objlog/}, keys that cross a symbolic link, and keys that would make an
 * object and a folder share one path (writing {@code a/b} while {@code a} is an object, or {@code
 * a} while objects exist under {@code a/}). Reading such a key where nothing can exist answers "no
 * object".
 *
 * <p>Conditional writes are atomic across threads and processes on one machine: a key's writes
 * run under a striped lock (a JVM-wide lock plus a {@link java.nio.channels.FileLock} on {@code
 * .objlog/locks/stripe-NN.lock}); the new bytes go to a temporary file that is synced and then
 * renamed over the key atomically, and the directory is synced. The token is a generation from a
 * store-wide counter (reserved in blocks under {@code .objlog/generation}), kept in a per-object
 * sidecar under {@code .objlog/meta/} together with the identity (size, modification time, file
 * key) of the file it belongs to. A sidecar that does not describe the visible file (a crash
 * between the two renames, a sidecar a power cut lost or tore, a hand-copied file) is repaired
 * under the key's lock with a fresh generation, so a token always belongs to the bytes one can
 * read and never repeats. Only the object is forced to disk (its file, then its folder); its
 * sidecar is not, since a lost one is repaired like any other that does not match.
 *
 * <p>Thread-safety: safe for concurrent use by many threads, and by many processes (and store
 * instances) on one root. Uploads are single-threaded, as {@link ObjectUpload} says.
 */
public final class FilesystemObjectStore implements ObjectStore {

  private static final int GENERATION_BLOCK = 1024;
  private static final int READ_ATTEMPTS = 16;
  private static final HexFormat HEX = HexFormat.of();

  private final Path root;
  private final Path bookkeeping;
  private final Path metaDir;
  private final Path tempDir;
  private final Path uploadDir;
  private final Path generationFile;
  private final Clock clock;
  private final boolean durable;
  private final Retrier retrier;
  private final LockTable locks;
  private final ConfinedFiles confined;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** Folders whose sync failed after a rename into them; the store's own retries sync them. */
  private final java.util.Set<Path> unsyncedFolders = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private long nextGeneration;
  private long generationLimit;

  private FilesystemObjectStore(Builder builder) {
    this.clock = builder.clock;
    this.durable = builder.durableWrites;
    this.retrier = new Retrier(builder.retryPolicy, builder.sleeper, new SplittableRandom());
    try {
      if (builder.createRoot && !Files.isDirectory(builder.root)) {
        Files.createDirectories(builder.root);
        syncDirectory(builder.root.getParent());
      }
      this.root = builder.root.toRealPath();
      this.confined = new ConfinedFiles(root, builder.beforeAccess);
      if (!Files.isDirectory(root)) {
        throw new PermanentStoreException(
            "the filesystem store's root " + builder.root + " is not a directory");
      }
      this.bookkeeping = root.resolve(KeyRules.BOOKKEEPING_DIR);
      this.metaDir = bookkeeping.resolve("meta");
      this.tempDir = bookkeeping.resolve("tmp");
      this.uploadDir = bookkeeping.resolve("uploads");
      this.generationFile = bookkeeping.resolve("generation");
      createFolderDurably(bookkeeping);
      createFolderDurably(metaDir);
      createFolderDurably(tempDir);
      createFolderDurably(uploadDir);
      removeStaleTemporaries(builder.staleTempAge);
    } catch (NoSuchFileException e) {
      throw new PermanentStoreException(
          "the filesystem store's root " + builder.root + " does not exist; create it or enable createRoot", e);
    } catch (IOException e) {
      throw new PermanentStoreException(
          "cannot open the filesystem store at " + builder.root + ": " + e
              + "; check that the directory exists and is writable",
          e);
    }
    this.locks = LockTable.acquire(root, bookkeeping.resolve("locks"));
  }

  /** A builder for a store rooted at {@code root}. */
  public static Builder builder(Path root) {
    return new Builder(root);
  }

  /** A store at {@code root} with the default options. */
  public static FilesystemObjectStore open(Path root) {
    return builder(root).build();
  }

  /**
   * Configures a {@link FilesystemObjectStore}.
   *
   * <p>Thread-safety: not thread-safe; build on one thread.
   */
  public static final class Builder {
    private final Path root;
    private Clock clock = Clock.systemUTC();
    private boolean durableWrites = true;
    private boolean createRoot = true;
    private RetryPolicy retryPolicy =
        new RetryPolicy(3, Duration.ofMillis(10), Duration.ofMillis(200), 0.5, Duration.ofSeconds(30));
    private Sleeper sleeper = Sleeper.SYSTEM;
    private Duration staleTempAge = Duration.ofHours(1);
    private BiConsumer<String, String> beforeAccess = (operation, key) -> {};

    private Builder(Path root) {
      this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    }

    /** Source of the objects' {@code lastModified} times and of temporary-file ages. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Whether writes are synced to the disk before they are acknowledged (default true). Turning
     * it off keeps atomicity between processes but loses acknowledged writes on power failure; it
     * exists for tests and benchmarks.
     */
    public Builder durableWrites(boolean durableWrites) {
      this.durableWrites = durableWrites;
      return this;
    }

    /** Whether a missing root directory is created (default true). */
    public Builder createRoot(boolean createRoot) {
      this.createRoot = createRoot;
      return this;
    }

    /** How I/O errors are retried (default: 3 tries, 10 ms to 200 ms backoff). */
    public Builder retryPolicy(RetryPolicy retryPolicy) {
      this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
      return this;
    }

    /** How the retry backoff sleeps (default: real time). */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /**
     * Temporary files and uploads untouched for this long are deleted when a store opens (default
     * one hour). Younger ones may belong to a writer in another process and are left alone.
     */
    public Builder staleTempAge(Duration staleTempAge) {
      if (staleTempAge.isNegative()) {
        throw new InvalidArgumentException("staleTempAge must not be negative, was " + staleTempAge);
      }
      this.staleTempAge = staleTempAge;
      return this;
    }

    /**
     * Test seam (package-private): called with (operation, key) right before each lookup of a
     * key's file, so a test can swap a symbolic link in between the store's check and its open.
     */
    Builder beforeAccess(BiConsumer<String, String> beforeAccess) {
      this.beforeAccess = Objects.requireNonNull(beforeAccess, "beforeAccess");
      return this;
    }

    /**
     * Opens the store, creating {@code .objlog/} under the root.
     *
     * @throws PermanentStoreException when the root cannot be used
     */
    public FilesystemObjectStore build() {
      return new FilesystemObjectStore(this);
    }
  }

  /** The real path of the root directory. */
  public Path root() {
    return root;
  }

  // --- reads -------------------------------------------------------------------------------

  @Override
  public StoredObject get(String key) {
    Path path = readablePath(key);
    return retrier.read("GET " + key, () -> io("GET " + key, false, () -> readConsistently(key, path)));
  }

  @Override
  public byte[] getRange(String key, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new InvalidArgumentException(
          "range must have a non-negative offset and length, was " + offset + "+" + length);
    }
    Path path = readablePath(key);
    return retrier.read(
        "GET " + key + " range",
        () ->
            io(
                "GET " + key,
                false,
                () -> {
                  if (objectAttributes(key, path) == null) {
                    throw notFound(key);
                  }
                  // Objects are never modified in place, only replaced by rename, so one open file
                  // is one version throughout.
                  try {
                    return confined.inFolderOf("open", key, (folder, name) -> {
                      try (SeekableByteChannel channel = openObject(key, folder, name)) {
                        long size = channel.size();
                        if (offset >= size) {
                          return new byte[0];
                        }
                        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(length, size - offset));
                        channel.position(offset);
                        while (buffer.hasRemaining()) {
                          if (channel.read(buffer) < 0) {
                            break;
                          }
                        }
                        return buffer.position() == buffer.capacity()
                            ? buffer.array()
                            : java.util.Arrays.copyOf(buffer.array(), buffer.position());
                      }
                    });
                  } catch (NoSuchFileException | ConfinedFiles.NotAFolderException e) {
                    throw notFound(key);
                  }
                }));
  }

  @Override
  public Optional<ObjectMetadata> head(String key) {
    Path path = readablePath(key);
    Sidecar current = retrier.read("HEAD " + key, () -> io("HEAD " + key, false, () -> currentVersion(key, path)));
    return Optional.ofNullable(current).map(FilesystemObjectStore::metadata);
  }

  @Override
  public ConditionalGetResult getIfChanged(String key, VersionToken known) {
    Objects.requireNonNull(known, "known");
    Path path = readablePath(key);
    return retrier.read(
        "GET " + key + " if changed",
        () ->
            io(
                "GET " + key,
                false,
                () -> {
                  Sidecar current = currentVersion(key, path);
                  if (current == null) {
                    return new ConditionalGetResult.Missing();
                  }
                  if (!known.isAbsent() && token(current).equals(known)) {
                    return new ConditionalGetResult.Unchanged();
                  }
                  try {
                    return new ConditionalGetResult.Changed(readConsistently(key, path));
                  } catch (ObjectNotFoundException deletedMeanwhile) {
                    return new ConditionalGetResult.Missing();
                  }
                }));
  }

  /**
   * Reads the bytes and the token of one version without a lock: the file's identity must be the
   * same before and after the read and must be the one the sidecar describes.
   */
  private StoredObject readConsistently(String key, Path path) throws IOException {
    for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      BasicFileAttributes before = objectAttributes(key, path);
      if (before == null) {
        throw notFound(key);
      }
      byte[] bytes;
      try {
        bytes = readBytes(key);
      } catch (NoSuchFileException | ConfinedFiles.NotAFolderException replacedOrDeleted) {
        continue;
      }
      BasicFileAttributes after = objectAttributes(key, path);
      if (after == null) {
        throw notFound(key);
      }
      FileIdentity identity = identity(after);
      if (!identity(before).equals(identity) || bytes.length != after.size()) {
        continue;
      }
      Sidecar version = currentVersion(key, path);
      if (version != null && version.identity().equals(identity)) {
        return new StoredObject(metadata(version), bytes);
      }
    }
    throw new TransientStoreException(
        "GET " + key + ": the object kept changing while it was read", false);
  }

  /** The bytes of the key's file, opened without following a link anywhere on its path. */
  private byte[] readBytes(String key) throws IOException {
    return confined.inFolderOf("open", key, (folder, name) -> {
      try (SeekableByteChannel channel = openObject(key, folder, name)) {
        return ConfinedFiles.readAll(channel);
      }
    });
  }

  /**
   * Opens the object's file with NOFOLLOW_LINKS: a link swapped in after the caller's check makes
   * the open itself fail (ELOOP), which is reported as the refusal it is, not as an I/O hiccup.
   */
  private SeekableByteChannel openObject(String key, ConfinedFiles.Folder folder, Path name) throws IOException {
    try {
      return folder.openForRead(name);
    } catch (NoSuchFileException e) {
      throw e;
    } catch (FileSystemException e) {
      BasicFileAttributes attributes = folder.attributes(name);
      if (attributes != null && !attributes.isRegularFile() && !attributes.isDirectory()) {
        throw notRegular(key, attributes);
      }
      throw e;
    }
  }

  // --- writes ------------------------------------------------------------------------------

  @Override
  public CreateResult putIfAbsent(String key, byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    Path path = readablePath(key);
    return retrier.write(
        "PUT " + key + " if absent",
        () -> {
          Path temp = io("PUT " + key, false, () -> writeTemporary(bytes));
          try {
            return locks.withKeyLock(key, () -> createLocked(key, path, temp));
          } finally {
            deleteQuietly(temp);
          }
        });
  }

  @Override
  public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(bytes, "bytes");
    Path path = readablePath(key);
    return retrier.write(
        "PUT " + key + " if-match " + expected,
        () -> {
          Path temp = io("PUT " + key, false, () -> writeTemporary(bytes));
          try {
            return locks.withKeyLock(
                key,
                () ->
                    io(
                        "PUT " + key,
                        false,
                        () -> {
                          if (expected.isAbsent()) {
                            refuseFolderAt(key, path);
                          }
                          Sidecar current = repairLocked(key, path);
                          if (current == null) {
                            return expected.isAbsent()
                                ? new CasResult.Swapped(install(key, path, temp))
                                : new CasResult.Conflict(null);
                          }
                          if (!token(current).equals(expected)) {
                            // As for create-only: a conflict may be the caller's own earlier try.
                            syncIfLeftUnsynced(path.getParent());
                            return new CasResult.Conflict(
                                new StoredObject(metadata(current), readBytes(key)));
                          }
                          return new CasResult.Swapped(install(key, path, temp));
                        }));
          } finally {
            deleteQuietly(temp);
          }
        });
  }

  /** Under the key's lock: moves {@code temp} to the key unless an object is there. */
  private CreateResult createLocked(String key, Path path, Path temp) {
    return io(
        "PUT " + key,
        false,
        () -> {
          refuseFolderAt(key, path);
          if (objectAttributes(key, path) != null) {
            // A retry after a failed folder sync lands here and its caller takes the object for
            // its own, so what it is told exists must be durable.
            syncIfLeftUnsynced(path.getParent());
            return new CreateResult.AlreadyExists();
          }
          return new CreateResult.Created(install(key, path, temp));
        });
  }

  /**
   * Under the key's lock: makes {@code temp} the object. The object is renamed first and the
   * sidecar second, so a crash in between leaves the new bytes with a sidecar that does not match
   * them, which the next reader repairs with a fresh generation.
   */
  private VersionToken install(String key, Path path, Path temp) throws IOException {
    FileIdentity identity = identity(Files.readAttributes(temp, BasicFileAttributes.class, NOFOLLOW_LINKS));
    long generation = nextGeneration();
    Instant written = clock.instant();
    for (int attempt = 0; ; attempt++) {
      ensureParentFolders(key, path);
      try {
        confined.inFolderOf("rename", key, (folder, name) -> {
          folder.moveIn(temp, name);
          return null;
        });
        break;
      } catch (NoSuchFileException parentRemoved) {
        // A delete in another stripe pruned the (then empty) parent folder; make it again.
        if (attempt >= 8) {
          throw parentRemoved;
        }
      } catch (AtomicMoveNotSupportedException e) {
        throw new PermanentStoreException(
            "cannot rename atomically from " + tempDir + " to " + path
                + "; keep the store's root and its .objlog folder on one file system",
            e);
      } catch (FileSystemException e) {
        refuseFolderAt(key, path);
        throw e;
      }
    }
    try {
      syncDirectory(path.getParent());
    } catch (IOException e) {
      unsyncedFolders.add(path.getParent());
      throw new TransientStoreException(
          "PUT " + key + ": the object was renamed into place but its folder could not be synced (" + e
              + "); it may not survive a power failure",
          true,
          e);
    }
    try {
      writeSidecar(new Sidecar(key, generation, identity, written));
    } catch (IOException e) {
      throw new TransientStoreException(
          "PUT " + key + ": the object was written but its token could not be recorded (" + e
              + "); the next read gives it a fresh token",
          true,
          e);
    }
    return VersionToken.of(Long.toString(generation));
  }

  @Override
  public void delete(Collection<String> keys) {
    Objects.requireNonNull(keys, "keys");
    List<String> checked = new ArrayList<>(keys.size());
    for (String key : keys) {
      KeyRules.check(key);
      checked.add(key);
    }
    for (String key : checked) {
      Path path = pathOf(key);
      retrier.read(
          "DELETE " + key,
          () ->
              locks.withKeyLock(
                  key,
                  () ->
                      io(
                          "DELETE " + key,
                          false,
                          () -> {
                            if (objectAttributes(key, path) != null) {
                              // Unlinks relative to the walked folder: never through a swapped-in link.
                              confined.inFolderOf("delete", key, (folder, name) -> folder.deleteFile(name));
                              syncDirectory(path.getParent());
                            }
                            Files.deleteIfExists(sidecarPath(key));
                            pruneEmptyFolders(path.getParent());
                            return null;
                          })));
    }
  }

  /** Removes now-empty folders from {@code folder} up to (not including) the root. */
  private void pruneEmptyFolders(Path folder) {
    Path dir = folder;
    while (dir != null && !dir.equals(root) && dir.startsWith(root)) {
      if (!Files.isDirectory(dir, NOFOLLOW_LINKS)) {
        return;
      }
      String folderKey = root.relativize(dir).toString().replace(dir.getFileSystem().getSeparator(), "/");
      try {
        confined.inFolderOf("prune", folderKey, (parent, name) -> {
          parent.deleteFolder(name);
          return null;
        });
      } catch (DirectoryNotEmptyException | NoSuchFileException e) {
        return;
      } catch (IOException | PermanentStoreException e) {
        return;
      }
      dir = dir.getParent();
    }
  }

  // --- uploads -----------------------------------------------------------------------------

  @Override
  public ObjectUpload startUpload(String key) {
    Path path = readablePath(key);
    Path temp = uploadDir.resolve(UUID.randomUUID() + KeyRules.TEMP_SUFFIX);
    FileChannel channel =
        io(
            "start upload of " + key,
            false,
            () -> FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
    return new FilesystemUpload(key, path, temp, channel);
  }

  /** Appends to a file under {@code .objlog/uploads/}; complete moves it in create-only. */
  private final class FilesystemUpload implements ObjectUpload {
    private final String key;
    private final Path path;
    private final Path temp;
    private final FileChannel channel;
    private long written;
    private boolean finished;

    FilesystemUpload(String key, Path path, Path temp, FileChannel channel) {
      this.key = key;
      this.path = path;
      this.temp = temp;
      this.channel = channel;
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
      requireActive();
      io(
          "upload of " + key,
          false,
          () -> {
            ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
            while (buffer.hasRemaining()) {
              channel.write(buffer);
            }
            return null;
          });
      written += length;
    }

    @Override
    public long bytesWritten() {
      return written;
    }

    @Override
    public CreateResult complete() {
      requireActive();
      finished = true;
      try {
        io(
            "complete upload of " + key,
            false,
            () -> {
              if (durable) {
                channel.force(true);
              }
              channel.close();
              return null;
            });
        return retrier.write(
            "complete upload of " + key, () -> locks.withKeyLock(key, () -> createLocked(key, path, temp)));
      } finally {
        deleteQuietly(temp);
      }
    }

    @Override
    public void abort() {
      finished = true;
      try {
        channel.close();
      } catch (IOException ignored) {
        // The file is deleted next; nothing in it matters.
      }
      deleteQuietly(temp);
    }

    private void requireActive() {
      if (finished) {
        throw new PermanentStoreException("upload of " + key + " was already completed or aborted");
      }
    }
  }

  // --- listing -----------------------------------------------------------------------------

  @Override
  public ListPage list(String prefix, String afterKey, int limit) {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(afterKey, "afterKey");
    if (limit < 1) {
      throw new InvalidArgumentException("list limit must be at least 1, was " + limit);
    }
    checkOpen();
    return retrier.read("LIST " + prefix, () -> io("LIST " + prefix, false, () -> listOnce(prefix, afterKey, limit)));
  }

  private record Entry(String name, boolean folder, String order) {}

  private static final class Frame {
    final Path dir;
    final String keyPrefix;
    final List<Entry> entries;
    int next;

    Frame(Path dir, String keyPrefix, List<Entry> entries) {
      this.dir = dir;
      this.keyPrefix = keyPrefix;
      this.entries = entries;
    }
  }

  /**
   * Walks the tree depth first. Within a folder, a subfolder {@code d} sorts as {@code "d/"}, which
   * makes the depth-first order the byte order of the keys. Only the folders on the current path
   * are held in memory, and subtrees wholly at or before {@code afterKey} are skipped unread.
   */
  private ListPage listOnce(String prefix, String afterKey, int limit) throws IOException {
    int slash = prefix.lastIndexOf('/');
    String folderKey = slash < 0 ? "" : prefix.substring(0, slash);
    String namePrefix = prefix.substring(slash + 1);
    if (!folderKey.isEmpty() && KeyRules.problem(folderKey) != null) {
      return new ListPage(List.of(), null);
    }
    Path start = folderKey.isEmpty() ? root : pathOf(folderKey);
    List<Entry> first = folderEntries(start, folderKey.isEmpty(), namePrefix);
    if (first == null) {
      return new ListPage(List.of(), null);
    }
    Deque<Frame> stack = new ArrayDeque<>();
    stack.push(new Frame(start, folderKey.isEmpty() ? "" : folderKey + "/", first));
    List<ObjectMetadata> page = new ArrayList<>(Math.min(limit, 256));
    while (!stack.isEmpty()) {
      Frame frame = stack.peek();
      if (frame.next == frame.entries.size()) {
        stack.pop();
        continue;
      }
      Entry entry = frame.entries.get(frame.next++);
      if (entry.folder()) {
        String sub = frame.keyPrefix + entry.name() + "/";
        if (!afterKey.isEmpty() && !afterKey.startsWith(sub) && KeyOrder.compare(sub, afterKey) < 0) {
          continue;
        }
        List<Entry> entries = folderEntries(frame.dir.resolve(entry.name()), false, "");
        if (entries != null) {
          stack.push(new Frame(frame.dir.resolve(entry.name()), sub, entries));
        }
        continue;
      }
      String key = frame.keyPrefix + entry.name();
      if (!afterKey.isEmpty() && KeyOrder.compare(key, afterKey) <= 0) {
        continue;
      }
      Sidecar version = currentVersion(key, frame.dir.resolve(entry.name()));
      if (version == null) {
        continue;
      }
      if (page.size() == limit) {
        return new ListPage(page, page.get(page.size() - 1).key());
      }
      page.add(metadata(version));
    }
    return new ListPage(page, null);
  }

  /** The listable entries of one folder in key order, or {@code null} when it is not a folder. */
  private @Nullable List<Entry> folderEntries(Path dir, boolean isRoot, String namePrefix) throws IOException {
    List<Entry> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
      for (Path child : stream) {
        String name = child.getFileName().toString();
        if (!name.startsWith(namePrefix)
            || (isRoot && name.equals(KeyRules.BOOKKEEPING_DIR))
            || name.endsWith(KeyRules.TEMP_SUFFIX)
            || name.indexOf('\\') >= 0) {
          continue;
        }
        BasicFileAttributes attributes;
        try {
          attributes = Files.readAttributes(child, BasicFileAttributes.class, NOFOLLOW_LINKS);
        } catch (NoSuchFileException deletedMeanwhile) {
          continue;
        }
        if (attributes.isDirectory()) {
          entries.add(new Entry(name, true, name + "/"));
        } else if (attributes.isRegularFile()) {
          entries.add(new Entry(name, false, name));
        }
      }
    } catch (NoSuchFileException | java.nio.file.NotDirectoryException e) {
      return null;
    } catch (FileSystemException e) {
      if (!Files.isDirectory(dir, NOFOLLOW_LINKS)) {
        return null;
      }
      throw e;
    }
    entries.sort((a, b) -> KeyOrder.compare(a.order(), b.order()));
    return entries;
  }

  // --- versions and sidecars ---------------------------------------------------------------

  /** The version of the visible object, repairing its sidecar when it is stale; null if absent. */
  private @Nullable Sidecar currentVersion(String key, Path path) throws IOException {
    BasicFileAttributes attributes = objectAttributes(key, path);
    if (attributes == null) {
      return null;
    }
    Sidecar sidecar = readSidecar(key);
    if (sidecar != null && sidecar.identity().equals(identity(attributes))) {
      return sidecar;
    }
    return locks.withKeyLock(key, () -> io("repair " + key, false, () -> repairLocked(key, path)));
  }

  /** Under the key's lock: the visible object's version, giving it a fresh one if needed. */
  private @Nullable Sidecar repairLocked(String key, Path path) throws IOException {
    BasicFileAttributes attributes = objectAttributes(key, path);
    if (attributes == null) {
      Files.deleteIfExists(sidecarPath(key));
      return null;
    }
    FileIdentity identity = identity(attributes);
    Sidecar sidecar = readSidecar(key);
    if (sidecar != null && sidecar.identity().equals(identity)) {
      return sidecar;
    }
    Sidecar repaired =
        new Sidecar(key, nextGeneration(), identity, attributes.lastModifiedTime().toInstant());
    writeSidecar(repaired);
    return repaired;
  }

  private @Nullable Sidecar readSidecar(String key) throws IOException {
    try {
      return Sidecar.decode(Files.readAllBytes(sidecarPath(key)), key);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * Writes a sidecar without forcing it or its folder to disk. A power cut may leave the previous
   * sidecar, a torn one (its CRC fails) or none; each is then read as one that does not describe
   * the visible file, which {@link #repairLocked} gives a fresh generation. The object itself was
   * made durable before its sidecar is written, so a sidecar can never survive without its bytes;
   * and generations are reserved durably in blocks, so the repaired token is above any lost one.
   * Syncing it would double the disk flushes of every write and buy nothing a repair does not.
   */
  private void writeSidecar(Sidecar sidecar) throws IOException {
    Path target = sidecarPath(sidecar.key());
    Path temp = writeTemporary(sidecar.encode(), false);
    try {
      createFolderDurably(target.getParent());
      Files.move(temp, target, ATOMIC_MOVE);
    } finally {
      deleteQuietly(temp);
    }
  }

  /** {@code .objlog/meta/<first two hex digits>/<SHA-256 of the key>}: flat, so no path clashes. */
  Path sidecarPath(String key) {
    try {
      String hash = HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(UTF_8)));
      return metaDir.resolve(hash.substring(0, 2)).resolve(hash);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }

  private static FileIdentity identity(BasicFileAttributes attributes) {
    return new FileIdentity(
        attributes.size(),
        attributes.lastModifiedTime().toInstant().toString(),
        String.valueOf(attributes.fileKey()));
  }

  private static VersionToken token(Sidecar sidecar) {
    return VersionToken.of(Long.toString(sidecar.generation()));
  }

  private static ObjectMetadata metadata(Sidecar sidecar) {
    return new ObjectMetadata(sidecar.key(), sidecar.identity().size(), token(sidecar), sidecar.written());
  }

  /**
   * The next generation. Blocks are reserved from {@code .objlog/generation} under a lock shared
   * with other processes, so generations never repeat on one root; the counter starts no lower
   * than the clock in microseconds, so even a lost {@code .objlog/} does not bring old tokens back.
   */
  private synchronized long nextGeneration() {
    if (nextGeneration >= generationLimit) {
      locks.withGenerationLock(
          () ->
              io(
                  "reserve generations",
                  false,
                  () -> {
                    long stored = 0;
                    try {
                      stored = Long.parseLong(Files.readString(generationFile, UTF_8).trim());
                    } catch (NoSuchFileException | NumberFormatException missingOrTorn) {
                      stored = 0;
                    }
                    long start = Math.max(stored, Math.multiplyExact(clock.millis(), 1000L));
                    Path temp = writeTemporary(Long.toString(start + GENERATION_BLOCK).getBytes(UTF_8));
                    try {
                      Files.move(temp, generationFile, ATOMIC_MOVE);
                      syncDirectory(bookkeeping);
                    } finally {
                      deleteQuietly(temp);
                    }
                    nextGeneration = start;
                    generationLimit = start + GENERATION_BLOCK;
                    return null;
                  }));
    }
    return nextGeneration++;
  }

  // --- paths and files ---------------------------------------------------------------------

  private Path pathOf(String key) {
    try {
      return root.resolve(key);
    } catch (InvalidPathException e) {
      throw new PermanentStoreException(
          "the filesystem store cannot hold the key '" + KeyRules.printable(key) + "': " + e.getReason(), e);
    }
  }

  private Path readablePath(String key) {
    Objects.requireNonNull(key, "key");
    checkOpen();
    KeyRules.check(key);
    return pathOf(key);
  }

  /**
   * The attributes of the regular file at {@code path}, or {@code null} when no object is there
   * (nothing, a folder, or a path through an object, which cannot hold one).
   */
  private @Nullable BasicFileAttributes objectAttributes(String key, Path path) throws IOException {
    BasicFileAttributes attributes;
    try {
      attributes = confined.inFolderOf("stat", key, (folder, name) -> folder.attributes(name));
    } catch (NoSuchFileException | ConfinedFiles.NotAFolderException e) {
      return null;
    }
    if (attributes == null || attributes.isDirectory()) {
      return null;
    }
    if (!attributes.isRegularFile()) {
      throw notRegular(key, attributes);
    }
    return attributes;
  }

  private static PermanentStoreException notRegular(String key, BasicFileAttributes attributes) {
    return new PermanentStoreException(
        "the filesystem store found " + (attributes.isSymbolicLink() ? "a symbolic link" : "a special file")
            + " at key '" + KeyRules.printable(key) + "'; it keeps only regular files and never follows links");
  }

  /** Refuses keys whose folders pass through a symbolic link, which could lead out of the root. */
  private void refuseLinkedFolders(String key, Path folder) throws IOException {
    if (folder.equals(root)) {
      return;
    }
    if (!folder.toRealPath().equals(folder)) {
      throw new PermanentStoreException(
          "the key '" + KeyRules.printable(key) + "' passes through a symbolic link under " + root
              + "; the filesystem store never follows links, so that it cannot write outside its root");
    }
  }

  /** The first proper prefix of {@code key} that is an object (a regular file), or null. */
  private @Nullable String objectOnTheWay(String key) {
    int slash = key.indexOf('/');
    while (slash > 0) {
      String ancestor = key.substring(0, slash);
      if (Files.isRegularFile(pathOf(ancestor), NOFOLLOW_LINKS)) {
        return ancestor;
      }
      slash = key.indexOf('/', slash + 1);
    }
    return null;
  }

  /** Refuses a write where an object and a folder would share one path. */
  private void refuseFolderAt(String key, Path path) {
    if (Files.isDirectory(path, NOFOLLOW_LINKS)) {
      throw new PermanentStoreException(
          "cannot write the key '" + KeyRules.printable(key) + "': objects exist under '"
              + KeyRules.printable(key) + "/', and in the filesystem store a key cannot be both an"
              + " object and a folder");
    }
    String blocker = objectOnTheWay(key);
    if (blocker != null) {
      throw clash(key, blocker);
    }
  }

  private static PermanentStoreException clash(String key, String blocker) {
    return new PermanentStoreException(
        "cannot write the key '" + KeyRules.printable(key) + "': '" + KeyRules.printable(blocker)
            + "' is an object, and in the filesystem store a key cannot be both an object and a folder");
  }

  /** Creates the folders of {@code key} one by one, refusing objects and links on the way. */
  private void ensureParentFolders(String key, Path path) throws IOException {
    Path parent = path.getParent();
    if (parent.equals(root)) {
      return;
    }
    Path dir = root;
    for (Path segment : root.relativize(parent)) {
      dir = dir.resolve(segment);
      // Look before creating: the folders of a key almost always exist already, and a refused
      // mkdir costs an exception with a stack trace per level on every write.
      BasicFileAttributes attributes = ConfinedFiles.ownAttributes(dir);
      if (attributes == null) {
        try {
          Files.createDirectory(dir);
          syncDirectory(dir.getParent());
          continue;
        } catch (FileAlreadyExistsException raced) {
          attributes = Files.readAttributes(dir, BasicFileAttributes.class, NOFOLLOW_LINKS);
        }
      }
      if (attributes.isRegularFile()) {
        throw clash(key, root.relativize(dir).toString().replace(dir.getFileSystem().getSeparator(), "/"));
      }
      if (!attributes.isDirectory()) {
        refuseLinkedFolders(key, dir);
        throw new PermanentStoreException(
            "cannot write the key '" + KeyRules.printable(key) + "': " + dir + " is not a folder");
      }
    }
  }

  private Path writeTemporary(byte[] bytes) throws IOException {
    return writeTemporary(bytes, durable);
  }

  private Path writeTemporary(byte[] bytes, boolean force) throws IOException {
    Path temp = tempDir.resolve(UUID.randomUUID() + KeyRules.TEMP_SUFFIX);
    try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      if (force) {
        channel.force(true);
      }
    } catch (IOException | RuntimeException e) {
      deleteQuietly(temp);
      throw e;
    }
    return temp;
  }

  /**
   * Makes a rename, create or delete in {@code dir} durable: the directory entry is only on disk
   * once the directory is synced. A failed sync is an error (the entry may be lost on power
   * failure), but a directory that cannot be opened is not: some platforms (Windows) cannot, and
   * their renames are durable on their own.
   */
  private void syncDirectory(Path dir) throws IOException {
    if (!durable) {
      return;
    }
    FileChannel channel;
    try {
      channel = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException unsupported) {
      return;
    }
    try (channel) {
      channel.force(true);
    }
  }

  /**
   * Creates the bookkeeping folder {@code dir} (and missing parents) if it is missing, syncing each
   * new folder's parent so that it (and what is later synced inside it) survives a power failure.
   */
  private void createFolderDurably(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    if (dir.getParent() != null && !Files.isDirectory(dir.getParent())) {
      createFolderDurably(dir.getParent());
    }
    try {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException exists) {
      if (Files.isDirectory(dir)) {
        return;
      }
      throw exists;
    }
    syncDirectory(dir.getParent());
  }

  /** Syncs {@code dir} if a rename into it was left unsynced by a failed sync of this instance. */
  private void syncIfLeftUnsynced(Path dir) throws IOException {
    if (unsyncedFolders.contains(dir)) {
      syncDirectory(dir);
      unsyncedFolders.remove(dir);
    }
  }

  private void removeStaleTemporaries(Duration age) throws IOException {
    Instant cutoff = clock.instant().minus(age);
    for (Path dir : List.of(tempDir, uploadDir)) {
      try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*" + KeyRules.TEMP_SUFFIX)) {
        for (Path temp : stream) {
          try {
            if (Files.getLastModifiedTime(temp, NOFOLLOW_LINKS).toInstant().isBefore(cutoff)) {
              Files.deleteIfExists(temp);
            }
          } catch (IOException e) {
            // Another process may be removing the same debris; leftovers are invisible anyway.
          }
        }
      }
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // Temporary files are invisible to readers; the next open removes stale ones.
    }
  }

  private ObjectNotFoundException notFound(String key) {
    return new ObjectNotFoundException("no object '" + KeyRules.printable(key) + "' in " + describe());
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new PermanentStoreException(describe() + " is closed");
    }
  }

  @FunctionalInterface
  private interface IoAction<T> {
    T run() throws IOException;
  }

  /** Runs file I/O, classifying failures: permissions are permanent, other I/O errors transient. */
  private <T> T io(String what, boolean mayHaveTakenEffect, IoAction<T> action) {
    try {
      return action.run();
    } catch (AccessDeniedException e) {
      throw new PermanentStoreException(
          what + " in " + describe() + ": permission denied on " + e.getFile()
              + "; check that this process may read and write under the root",
          e);
    } catch (IOException e) {
      if (diskFull(e)) {
        // Transient: the write succeeds once space is freed, and nothing was made visible.
        throw new TransientStoreException(
            what + " in " + describe() + " failed: the disk is full (" + e.getMessage()
                + "); free space on the file system holding " + root + ", and writes are retried",
            mayHaveTakenEffect,
            e);
      }
      throw new TransientStoreException(what + " in " + describe() + " failed: " + e, mayHaveTakenEffect, e);
    }
  }

  /** ENOSPC or EDQUOT as the JDK reports them (POSIX strerror texts; Windows' own wording). */
  private static boolean diskFull(IOException e) {
    String message = e.getMessage();
    return message != null
        && (message.contains("No space left on device")
            || message.contains("Disk quota exceeded")
            || message.contains("not enough space on the disk"));
  }

  @Override
  public String describe() {
    return "filesystem store at " + root;
  }

  @Override
  public String toString() {
    return describe();
  }

  /** Releases this instance's share of the lock files. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      locks.release();
    }
  }
}
