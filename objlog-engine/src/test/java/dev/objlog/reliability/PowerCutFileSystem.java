package dev.objlog.reliability;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardOpenOption;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A file system over the default one that knows what a power cut would keep, for testing what the
 * filesystem store makes durable. Everything under one real directory (the "disk") is modelled as
 * inodes: a file's durable bytes are those of its last {@link FileChannel#force}; a directory's
 * durable entries are those it had at its last force (a directory opened as a channel and forced,
 * which is how the store syncs a rename). A power cut ({@link #cutAt}) captures images of the disk
 * at that moment: what survives when nothing unsynced does ({@link Image#lost}), when everything
 * does (a process crash, {@link Image#kept}), and a seeded mix where each unsynced file and
 * directory independently keeps or loses its changes ({@link Image#mixed}), the freedom a real
 * kernel has. {@link #restore} makes one image the disk's contents, keeping the inode numbers (the
 * store's sidecars compare file keys) and modification times, as a machine that reboots would.
 *
 * <p>Crash points are the calls that change something: a file created, each channel write, each
 * force, a directory created, a delete, a rename. They are counted from {@link #cutAt}; at point
 * {@code n} the images are taken before the call runs, and from then on every call fails with
 * {@link AccessDeniedException} ("the power is off"), which the store reports as permanent so the
 * dead writer stops at once instead of retrying until its deadline; nothing after the cut can
 * change the images.
 *
 * <p>It also fills up: with {@link #quota} set, a write that would pass it fails with {@code
 * IOException("No space left on device")}, as Linux reports ENOSPC from {@code write(2)}.
 *
 * <p>Thread-safety: safe for concurrent use; every mutating call and the model run under one lock.
 * File locks delegate to the real file system and are taken outside that lock.
 */
final class PowerCutFileSystem extends FileSystem {
  private final FileSystem real = FileSystems.getDefault();
  private final Provider provider = new Provider();
  private final Path disk;
  private final Object lock = new Object();
  private final boolean virtualFileKeys;
  /** Runs (outside the model's lock) when a folder something was just renamed into is synced. */
  private volatile java.util.function.Consumer<Path> beforeRenameSync = p -> {};
  private Path lastRenamedInto;
  private volatile boolean failDirectorySyncs;

  /** Virtual inode numbers of the real file keys currently linked under the disk. */
  private final Map<Object, Long> inodeOf = new HashMap<>();
  private final Map<Long, Node> nodes = new HashMap<>();
  /** Where each live file is now, so that a force can read what it makes durable. */
  private final Map<Long, Path> whereIs = new HashMap<>();
  private long nextInode = 1;
  private long rootInode;

  private long points;
  private final List<String> trace = new ArrayList<>();
  /**
   * Temporary files and segments are named by random UUIDs (and the lock stripe and sidecar folder
   * of a segment follow from its name); the trace compares the calls, not the names.
   */
  private static final java.util.regex.Pattern UUID_LIKE = java.util.regex.Pattern.compile(
      "[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}|stripe-[0-9]+|(?<=meta/)[0-9a-f]{2}\\b");
  private long cutAt = -1;
  private boolean dead;
  private long seed;
  private Runnable onCut = () -> {};
  private Images images;

  private long quota = Long.MAX_VALUE;
  private long written;
  private final AtomicInteger noSpaceFailures = new AtomicInteger();

  private static final class Node {
    final long inode;
    final boolean directory;
    /** Files: bytes at the last force (empty if never forced). */
    byte[] durable = new byte[0];
    FileTime durableModified;
    /** Directories: entries at the last force. */
    Map<String, Long> durableEntries = new TreeMap<>();

    Node(long inode, boolean directory, FileTime modified) {
      this.inode = inode;
      this.directory = directory;
      this.durableModified = modified;
    }
  }

  /** One state of the disk: relative path to file bytes (or {@code null} for a directory). */
  record Image(String name, TreeMap<String, Entry> entries) {
    record Entry(long inode, byte[] bytes, FileTime modified) {
      boolean directory() {
        return bytes == null;
      }
    }
  }

  /** The images a cut produced. */
  record Images(long point, Image lost, Image kept, Image mixed) {
    List<Image> all() {
      return List.of(lost, kept, mixed);
    }
  }

  /** A layer over the existing directory {@code disk}; what is in it now counts as durable. */
  PowerCutFileSystem(Path disk) throws IOException {
    this(disk, true);
  }

  /**
   * With {@code virtualFileKeys} false, attributes show the real file keys, so a store opened on
   * the same directory without this layer (another process) sees the same identities.
   */
  PowerCutFileSystem(Path disk, boolean virtualFileKeys) throws IOException {
    this.virtualFileKeys = virtualFileKeys;
    this.disk = disk.toAbsolutePath().normalize();
    synchronized (lock) {
      registerExisting();
    }
  }

  /** {@code disk} as a path of this file system. */
  Path disk() {
    return wrap(disk);
  }

  /**
   * Cuts the power just before crash point {@code point} (counted from now); {@code onCut} runs
   * under the model's lock at that moment (to snapshot acknowledgements), and {@code mixSeed}
   * drives the mixed image. A negative point never cuts (counts only).
   */
  void cutAt(long point, long mixSeed, Runnable onCut) {
    synchronized (lock) {
      this.points = 0;
      this.trace.clear();
      this.cutAt = point;
      this.seed = mixSeed;
      this.onCut = onCut;
      this.images = null;
    }
  }

  /** Crash points passed since {@link #cutAt}. */
  long points() {
    synchronized (lock) {
      return points;
    }
  }

  /** The crash points passed since {@link #cutAt}: what was called, where, in order. */
  List<String> trace() {
    synchronized (lock) {
      return List.copyOf(trace);
    }
  }

  /** The images of the cut, or {@code null} if the power is still on. */
  Images images() {
    synchronized (lock) {
      return images;
    }
  }

  /** Writes fail with ENOSPC once {@code bytes} more have been written (Long.MAX_VALUE: never). */
  void quota(long bytes) {
    synchronized (lock) {
      written = 0;
      quota = bytes;
    }
  }

  /**
   * {@code hook} runs with the folder's path just before a directory sync that follows a rename
   * into that folder: the window between the rename and its sync (a named crash point).
   */
  void beforeRenameSync(java.util.function.Consumer<Path> hook) {
    this.beforeRenameSync = hook;
  }

  /** While on, a directory sync fails with {@code IOException("Input/output error")} (EIO). */
  void failDirectorySyncs(boolean fail) {
    this.failDirectorySyncs = fail;
  }

  int noSpaceFailures() {
    return noSpaceFailures.get();
  }

  /**
   * Powers the disk back on with {@code image} as its contents: the real directory is emptied and
   * rewritten, inode numbers and modification times kept, and everything in it is durable.
   */
  void restore(Image image) throws IOException {
    synchronized (lock) {
      List<Path> old;
      try (Stream<Path> walk = Files.walk(disk)) {
        old = walk.filter(p -> !p.equals(disk)).sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList();
      }
      for (Path p : old) {
        Files.delete(p);
      }
      inodeOf.clear();
      nodes.clear();
      whereIs.clear();
      Map<String, Long> inodes = new HashMap<>();
      for (Map.Entry<String, Image.Entry> e : image.entries().entrySet()) {
        Path p = disk.resolve(e.getKey());
        Image.Entry entry = e.getValue();
        if (entry.directory()) {
          Files.createDirectories(p);
        } else {
          Files.createDirectories(p.getParent());
          Files.write(p, entry.bytes());
          Files.setLastModifiedTime(p, entry.modified());
        }
        inodes.put(e.getKey(), entry.inode());
      }
      Node root = new Node(rootInode, true, null);
      nodes.put(rootInode, root);
      inodeOf.put(realKey(disk), rootInode);
      for (Map.Entry<String, Image.Entry> e : image.entries().entrySet()) {
        Path p = disk.resolve(e.getKey());
        Image.Entry entry = e.getValue();
        Node node = new Node(entry.inode(), entry.directory(), entry.modified());
        if (!entry.directory()) {
          node.durable = entry.bytes();
          whereIs.put(entry.inode(), p);
        }
        nodes.put(entry.inode(), node);
        inodeOf.put(realKey(p), entry.inode());
        Path parent = disk.relativize(p).getParent();
        Node dir = parent == null ? root : nodes.get(inodes.get(parent.toString()));
        dir.durableEntries.put(p.getFileName().toString(), entry.inode());
      }
      dead = false;
      cutAt = -1;
      points = 0;
      images = null;
    }
  }

  // --- the model ---------------------------------------------------------------------------

  private void registerExisting() throws IOException {
    rootInode = nextInode++;
    Node root = new Node(rootInode, true, null);
    nodes.put(rootInode, root);
    inodeOf.put(realKey(disk), rootInode);
    registerChildren(disk, root);
  }

  private void registerChildren(Path dir, Node node) throws IOException {
    try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
      for (Path child : children) {
        BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class, NOFOLLOW_LINKS);
        long inode = nextInode++;
        Node n = new Node(inode, a.isDirectory(), a.lastModifiedTime());
        nodes.put(inode, n);
        inodeOf.put(a.fileKey(), inode);
        node.durableEntries.put(child.getFileName().toString(), inode);
        if (a.isDirectory()) {
          registerChildren(child, n);
        } else {
          n.durable = Files.readAllBytes(child);
          whereIs.put(inode, child);
        }
      }
    }
  }

  private static Object realKey(Path realPath) throws IOException {
    return Files.readAttributes(realPath, BasicFileAttributes.class, NOFOLLOW_LINKS).fileKey();
  }

  private boolean onDisk(Path realPath) {
    return realPath.startsWith(disk);
  }

  /** The inode of a real path under the disk, registering one the model has not seen as durable. */
  private long inode(Path realPath) throws IOException {
    BasicFileAttributes a = Files.readAttributes(realPath, BasicFileAttributes.class, NOFOLLOW_LINKS);
    Long known = inodeOf.get(a.fileKey());
    if (known != null) {
      return known;
    }
    throw new IllegalStateException("the power-cut model has no inode for " + realPath + "; it was changed behind the layer");
  }

  private long fresh(Path realPath, boolean directory) throws IOException {
    BasicFileAttributes a = Files.readAttributes(realPath, BasicFileAttributes.class, NOFOLLOW_LINKS);
    long inode = nextInode++;
    // A reused real inode number is a new file: the old node stays for the entries that name it.
    inodeOf.put(a.fileKey(), inode);
    nodes.put(inode, new Node(inode, directory, a.lastModifiedTime()));
    if (!directory) {
      whereIs.put(inode, realPath);
    }
    return inode;
  }

  private Map<String, Long> currentEntries(Path realDir) throws IOException {
    Map<String, Long> entries = new TreeMap<>();
    try (DirectoryStream<Path> children = Files.newDirectoryStream(realDir)) {
      for (Path child : children) {
        entries.put(child.getFileName().toString(), inode(child));
      }
    }
    return entries;
  }

  /** Called under the lock before every mutating call. */
  private void crashPoint(Path where) throws IOException {
    checkPower(where);
    long point = points++;
    trace.add(StackWalker.getInstance().walk(f -> f.skip(1).findFirst().orElseThrow().getMethodName())
        + " " + UUID_LIKE.matcher(disk.relativize(where.toAbsolutePath()).toString()).replaceAll("*"));
    if (point == cutAt) {
      images = new Images(point, image("lost", null), current(), image("mixed", new SplittableRandom(seed)));
      onCut.run();
      dead = true;
      checkPower(where);
    }
  }

  private void checkPower(Path where) throws IOException {
    if (dead) {
      throw new AccessDeniedException(String.valueOf(where), null, "the power is off");
    }
  }

  /** The surviving tree: durable state, or with {@code mix}, each node's current state by coin. */
  private Image image(String name, SplittableRandom mix) throws IOException {
    Map<Long, Map<String, Long>> liveEntries = new HashMap<>();
    Map<Long, byte[]> liveBytes = new HashMap<>();
    Map<Long, FileTime> liveModified = new HashMap<>();
    if (mix != null) {
      walkLive(disk, liveEntries, liveBytes, liveModified);
    }
    TreeMap<String, Image.Entry> out = new TreeMap<>();
    collect(nodes.get(rootInode), "", out, mix, liveEntries, liveBytes, liveModified, new java.util.HashSet<>());
    return new Image(name, out);
  }

  private void collect(Node dir, String prefix, TreeMap<String, Image.Entry> out, SplittableRandom mix,
      Map<Long, Map<String, Long>> liveEntries, Map<Long, byte[]> liveBytes, Map<Long, FileTime> liveModified,
      Set<Long> seen) {
    if (!seen.add(dir.inode)) {
      return;
    }
    Map<String, Long> entries = dir.durableEntries;
    if (mix != null && liveEntries.containsKey(dir.inode) && mix.nextBoolean()) {
      entries = liveEntries.get(dir.inode);
    }
    for (Map.Entry<String, Long> e : entries.entrySet()) {
      Node n = nodes.get(e.getValue());
      String path = prefix + e.getKey();
      if (n.directory) {
        out.put(path, new Image.Entry(n.inode, null, null));
        collect(n, path + "/", out, mix, liveEntries, liveBytes, liveModified, seen);
      } else if (mix != null && liveBytes.containsKey(n.inode) && mix.nextBoolean()) {
        out.put(path, new Image.Entry(n.inode, liveBytes.get(n.inode), liveModified.get(n.inode)));
      } else {
        out.put(path, new Image.Entry(n.inode, n.durable, n.durableModified));
      }
    }
  }

  private void walkLive(Path dir, Map<Long, Map<String, Long>> entries, Map<Long, byte[]> bytes,
      Map<Long, FileTime> modified) throws IOException {
    long inode = inode(dir);
    entries.put(inode, currentEntries(dir));
    try (DirectoryStream<Path> children = Files.newDirectoryStream(dir)) {
      for (Path child : children) {
        BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class, NOFOLLOW_LINKS);
        if (a.isDirectory()) {
          walkLive(child, entries, bytes, modified);
        } else {
          long i = inode(child);
          bytes.put(i, Files.readAllBytes(child));
          modified.put(i, a.lastModifiedTime());
        }
      }
    }
  }

  /** Everything as it is now: what a process crash leaves. */
  private Image current() throws IOException {
    TreeMap<String, Image.Entry> out = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(disk)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (p.equals(disk)) {
          continue;
        }
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, NOFOLLOW_LINKS);
        String rel = disk.relativize(p).toString();
        out.put(rel, a.isDirectory()
            ? new Image.Entry(inode(p), null, null)
            : new Image.Entry(inode(p), Files.readAllBytes(p), a.lastModifiedTime()));
      }
    }
    return new Image("kept", out);
  }

  // --- paths -------------------------------------------------------------------------------

  Path wrap(Path realPath) {
    return new CutPath(realPath);
  }

  Path unwrap(Path path) {
    if (path instanceof CutPath c && c.fs() == this) {
      return c.delegate;
    }
    throw new ProviderMismatchException("not a path of the power-cut file system: " + path);
  }

  private final class CutPath implements Path {
    final Path delegate;

    CutPath(Path delegate) {
      this.delegate = delegate;
    }

    PowerCutFileSystem fs() {
      return PowerCutFileSystem.this;
    }

    private Path w(Path p) {
      return p == null ? null : new CutPath(p);
    }

    @Override public FileSystem getFileSystem() { return PowerCutFileSystem.this; }
    @Override public boolean isAbsolute() { return delegate.isAbsolute(); }
    @Override public Path getRoot() { return w(delegate.getRoot()); }
    @Override public Path getFileName() { return w(delegate.getFileName()); }
    @Override public Path getParent() { return w(delegate.getParent()); }
    @Override public int getNameCount() { return delegate.getNameCount(); }
    @Override public Path getName(int index) { return w(delegate.getName(index)); }
    @Override public Path subpath(int beginIndex, int endIndex) { return w(delegate.subpath(beginIndex, endIndex)); }
    @Override public boolean startsWith(Path other) { return other instanceof CutPath c && delegate.startsWith(c.delegate); }
    @Override public boolean endsWith(Path other) { return other instanceof CutPath c && delegate.endsWith(c.delegate); }
    @Override public Path normalize() { return w(delegate.normalize()); }
    @Override public Path resolve(Path other) { return w(delegate.resolve(unwrap(other))); }
    @Override public Path relativize(Path other) { return w(delegate.relativize(unwrap(other))); }
    @Override public URI toUri() { return delegate.toUri(); }
    @Override public Path toAbsolutePath() { return w(delegate.toAbsolutePath()); }
    @Override public Path toRealPath(LinkOption... options) throws IOException { return w(delegate.toRealPath(options)); }
    @Override public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
      throw new UnsupportedOperationException("no watch service on the power-cut file system");
    }
    @Override public int compareTo(Path other) { return delegate.compareTo(unwrap(other)); }
    @Override public boolean equals(Object other) { return other instanceof CutPath c && c.fs() == fs() && delegate.equals(c.delegate); }
    @Override public int hashCode() { return delegate.hashCode(); }
    @Override public String toString() { return delegate.toString(); }
  }

  // --- the file system ---------------------------------------------------------------------

  @Override public FileSystemProvider provider() { return provider; }
  @Override public void close() { throw new UnsupportedOperationException("the power-cut file system stays open"); }
  @Override public boolean isOpen() { return true; }
  @Override public boolean isReadOnly() { return false; }
  @Override public String getSeparator() { return real.getSeparator(); }
  @Override public Iterable<Path> getRootDirectories() {
    List<Path> roots = new ArrayList<>();
    real.getRootDirectories().forEach(r -> roots.add(wrap(r)));
    return roots;
  }
  @Override public Iterable<FileStore> getFileStores() { return real.getFileStores(); }
  @Override public Set<String> supportedFileAttributeViews() { return real.supportedFileAttributeViews(); }
  @Override public Path getPath(String first, String... more) { return wrap(real.getPath(first, more)); }
  @Override public PathMatcher getPathMatcher(String syntaxAndPattern) {
    PathMatcher m = real.getPathMatcher(syntaxAndPattern);
    return p -> m.matches(unwrap(p));
  }
  @Override public UserPrincipalLookupService getUserPrincipalLookupService() { return real.getUserPrincipalLookupService(); }
  @Override public WatchService newWatchService() { throw new UnsupportedOperationException("no watch service"); }

  private final class Provider extends FileSystemProvider {
    private FileSystemProvider realProvider() {
      return real.provider();
    }

    @Override public String getScheme() { return "powercut"; }
    @Override public FileSystem newFileSystem(URI uri, Map<String, ?> env) { throw new UnsupportedOperationException(); }
    @Override public FileSystem getFileSystem(URI uri) { return PowerCutFileSystem.this; }
    @Override public Path getPath(URI uri) { return wrap(realProvider().getPath(uri)); }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
      return newFileChannel(path, options, attrs);
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
        throws IOException {
      Path r = unwrap(path);
      if (!onDisk(r)) {
        return realProvider().newFileChannel(r, options, attrs);
      }
      boolean mayCreate = options.contains(StandardOpenOption.CREATE) || options.contains(StandardOpenOption.CREATE_NEW);
      synchronized (lock) {
        if (mayCreate && !Files.exists(r, NOFOLLOW_LINKS)) {
          crashPoint(r);
          FileChannel channel = realProvider().newFileChannel(r, options, attrs);
          return new CutChannel(channel, fresh(r, false), false, r);
        }
        checkPower(r);
        FileChannel channel = realProvider().newFileChannel(r, options, attrs);
        try {
          long inode = inode(r);
          return new CutChannel(channel, inode, nodes.get(inode).directory, r);
        } catch (IOException | RuntimeException e) {
          channel.close();
          throw e;
        }
      }
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
        throws IOException {
      Path r = unwrap(dir);
      synchronized (lock) {
        checkPower(r);
      }
      DirectoryStream<Path> stream = realProvider().newDirectoryStream(r, p -> filter.accept(wrap(p)));
      return new DirectoryStream<>() {
        @Override
        public Iterator<Path> iterator() {
          Iterator<Path> it = stream.iterator();
          return new Iterator<>() {
            @Override public boolean hasNext() { return it.hasNext(); }
            @Override public Path next() { return wrap(it.next()); }
          };
        }

        @Override
        public void close() throws IOException {
          stream.close();
        }
      };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
      Path r = unwrap(dir);
      synchronized (lock) {
        if (!onDisk(r) || r.equals(disk)) {
          checkPower(r);
          realProvider().createDirectory(r, attrs);
          return;
        }
        crashPoint(r);
        realProvider().createDirectory(r, attrs);
        fresh(r, true);
      }
    }

    @Override
    public void delete(Path path) throws IOException {
      Path r = unwrap(path);
      synchronized (lock) {
        if (!onDisk(r)) {
          checkPower(r);
          realProvider().delete(r);
          return;
        }
        crashPoint(r);
        Object key = Files.exists(r, NOFOLLOW_LINKS) ? realKey(r) : null;
        realProvider().delete(r);
        if (key != null) {
          Long inode = inodeOf.remove(key);
          if (inode != null) {
            whereIs.remove(inode);
          }
        }
      }
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) {
      throw new UnsupportedOperationException("copy is not modelled by the power-cut file system");
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
      Path s = unwrap(source);
      Path t = unwrap(target);
      synchronized (lock) {
        if (!onDisk(s) || !onDisk(t)) {
          throw new UnsupportedOperationException("moves into or out of the power-cut disk are not modelled");
        }
        crashPoint(s);
        long inode = inode(s);
        Object replaced = Files.exists(t, NOFOLLOW_LINKS) ? realKey(t) : null;
        realProvider().move(s, t, options);
        if (replaced != null) {
          Long gone = inodeOf.remove(replaced);
          if (gone != null) {
            whereIs.remove(gone);
          }
        }
        if (!nodes.get(inode).directory) {
          whereIs.put(inode, t);
        }
        lastRenamedInto = t.getParent();
      }
    }

    @Override public boolean isSameFile(Path path, Path path2) throws IOException {
      return realProvider().isSameFile(unwrap(path), unwrap(path2));
    }
    @Override public boolean isHidden(Path path) throws IOException { return realProvider().isHidden(unwrap(path)); }
    @Override public FileStore getFileStore(Path path) throws IOException { return realProvider().getFileStore(unwrap(path)); }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
      Path r = unwrap(path);
      synchronized (lock) {
        checkPower(r);
      }
      realProvider().checkAccess(r, modes);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
      return realProvider().getFileAttributeView(unwrap(path), type, options);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
        throws IOException {
      Path r = unwrap(path);
      synchronized (lock) {
        checkPower(r);
        A attributes = realProvider().readAttributes(r, type, options);
        if (type != BasicFileAttributes.class || !onDisk(r)) {
          return attributes;
        }
        Long inode = inodeOf.get(attributes.fileKey());
        return inode == null || !virtualFileKeys ? attributes : (A) new VirtualAttributes(attributes, inode);
      }
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
      Path r = unwrap(path);
      synchronized (lock) {
        checkPower(r);
      }
      return realProvider().readAttributes(r, attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
      Path r = unwrap(path);
      synchronized (lock) {
        crashPoint(r);
        realProvider().setAttribute(r, attribute, value, options);
      }
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) {
      throw new UnsupportedOperationException("links are not modelled by the power-cut file system");
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
      return wrap(realProvider().readSymbolicLink(unwrap(link)));
    }
  }

  /** Real attributes with the model's inode number as the file key, stable across a reboot. */
  private record VirtualAttributes(BasicFileAttributes real, long inode) implements BasicFileAttributes {
    @Override public FileTime lastModifiedTime() { return real.lastModifiedTime(); }
    @Override public FileTime lastAccessTime() { return real.lastAccessTime(); }
    @Override public FileTime creationTime() { return real.creationTime(); }
    @Override public boolean isRegularFile() { return real.isRegularFile(); }
    @Override public boolean isDirectory() { return real.isDirectory(); }
    @Override public boolean isSymbolicLink() { return real.isSymbolicLink(); }
    @Override public boolean isOther() { return real.isOther(); }
    @Override public long size() { return real.size(); }
    @Override public Object fileKey() { return "(vino=" + inode + ")"; }
  }

  /** A channel whose forces update the model and whose writes are crash points and use quota. */
  private final class CutChannel extends FileChannel {
    private final FileChannel delegate;
    private final long inode;
    private final boolean directory;
    private final Path opened;

    CutChannel(FileChannel delegate, long inode, boolean directory, Path opened) {
      this.delegate = delegate;
      this.inode = inode;
      this.directory = directory;
      this.opened = opened;
    }

    private int written(ByteBuffer src, IoWrite write) throws IOException {
      synchronized (lock) {
        crashPoint(opened);
        if (quota != Long.MAX_VALUE && written + src.remaining() > quota) {
          noSpaceFailures.incrementAndGet();
          throw new IOException("No space left on device");
        }
        int n = write.run();
        written += n;
        return n;
      }
    }

    @Override public int read(ByteBuffer dst) throws IOException { check(); return delegate.read(dst); }
    @Override public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      check();
      return delegate.read(dsts, offset, length);
    }
    @Override public int write(ByteBuffer src) throws IOException { return written(src, () -> delegate.write(src)); }
    @Override public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long total = 0;
      for (int i = offset; i < offset + length; i++) {
        total += write(srcs[i]);
      }
      return total;
    }
    @Override public long position() throws IOException { return delegate.position(); }
    @Override public FileChannel position(long newPosition) throws IOException {
      delegate.position(newPosition);
      return this;
    }
    @Override public long size() throws IOException { check(); return delegate.size(); }
    @Override public FileChannel truncate(long size) throws IOException {
      synchronized (lock) {
        crashPoint(opened);
        delegate.truncate(size);
        return this;
      }
    }

    @Override
    public void force(boolean metaData) throws IOException {
      boolean afterRename;
      synchronized (lock) {
        afterRename = directory && opened.equals(lastRenamedInto);
        lastRenamedInto = null;
      }
      if (afterRename) {
        beforeRenameSync.accept(wrap(opened));
      }
      synchronized (lock) {
        crashPoint(opened);
        if (directory && failDirectorySyncs) {
          throw new IOException("Input/output error");
        }
        // No real fsync: the model decides what survives, and real syncs on a shared disk only
        // cost time.
        Node node = nodes.get(inode);
        if (directory) {
          node.durableEntries = currentEntries(opened);
        } else {
          Path now = whereIs.get(inode);
          if (now == null) {
            return; // unlinked: nothing names it, so nothing of it can survive
          }
          node.durable = Files.readAllBytes(now);
          node.durableModified = Files.getLastModifiedTime(now, NOFOLLOW_LINKS);
        }
      }
    }

    @Override public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      check();
      return delegate.transferTo(position, count, target);
    }
    @Override public long transferFrom(ReadableByteChannel src, long position, long count) {
      throw new UnsupportedOperationException("transferFrom is not modelled");
    }
    @Override public int read(ByteBuffer dst, long position) throws IOException { check(); return delegate.read(dst, position); }
    @Override public int write(ByteBuffer src, long position) throws IOException {
      return written(src, () -> delegate.write(src, position));
    }
    @Override public MappedByteBuffer map(MapMode mode, long position, long size) {
      throw new UnsupportedOperationException("mapping is not modelled");
    }
    @Override public FileLock lock(long position, long size, boolean shared) throws IOException {
      check();
      return delegate.lock(position, size, shared);
    }
    @Override public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      check();
      return delegate.tryLock(position, size, shared);
    }
    @Override protected void implCloseChannel() throws IOException { delegate.close(); }

    private void check() throws IOException {
      synchronized (lock) {
        checkPower(opened);
      }
    }
  }

  @FunctionalInterface
  private interface IoWrite {
    int run() throws IOException;
  }
}
