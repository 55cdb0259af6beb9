package dev.objlog.store.filesystem;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;

import dev.objlog.store.PermanentStoreException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Touches the file of a key without ever leaving the root through a symbolic link, even one swapped
 * in while the store works (check-then-open races).
 *
 * <p>Why this shape: checking a path and then opening it by name is never race-free, because every
 * folder on the path is looked up again by the open. So where the platform offers a {@link
 * SecureDirectoryStream} (the default provider on Linux and macOS: {@code openat} and friends),
 * the key's folders are walked one at a time from an open handle on the root, each opened relative
 * to the previous one with {@link java.nio.file.LinkOption#NOFOLLOW_LINKS}, and the final name is
 * stat-ed, opened, renamed into or unlinked relative to the handle of its own folder, again without
 * following a link. A link at any component, planted before or swapped in during the walk, makes
 * that one lookup fail; nothing is ever resolved through it. What such a folder handle refers to
 * cannot change under us, so a check and the following open through the same handle agree.
 *
 * <p>Residual: Java cannot create a folder relative to a handle ({@code mkdirat}), so missing
 * folders are created by path first; a link swapped in at that moment can at worst make an empty
 * folder appear outside the root. No object bytes are written, read or deleted there, because the
 * rename that publishes an object goes through the confined walk.
 *
 * <p>Without a {@code SecureDirectoryStream} (Windows, providers that do not offer one) the walk
 * falls back to checking that each folder's real path is itself, before and after, and opens the
 * final name with {@code NOFOLLOW_LINKS}: a link at the final name is still refused race-free, a
 * folder swapped for a link only between the two checks is not.
 *
 * <p>Thread-safety: stateless apart from the immutable root; safe for concurrent use.
 */
final class ConfinedFiles {
  private final Path root;
  private final BiConsumer<String, String> beforeAccess;

  /**
   * @param beforeAccess called with (operation, key) right before each confined lookup; the
   *     store's tests use it to swap a link in at exactly that moment
   */
  ConfinedFiles(Path root, BiConsumer<String, String> beforeAccess) {
    this.root = root;
    this.beforeAccess = beforeAccess;
  }

  /** What to do with the final name once its folder is held. */
  @FunctionalInterface
  interface Action<T> {
    T run(Folder folder, Path name) throws IOException;
  }

  /**
   * A held folder of the key: every method works on a name directly inside it and never follows
   * a link at that name.
   */
  interface Folder {
    /** The attributes of the name itself (a link is reported as a link), or null if absent. */
    @Nullable BasicFileAttributes attributes(Path name) throws IOException;

    /** Opens the name for reading; fails if it is a link. */
    SeekableByteChannel openForRead(Path name) throws IOException;

    /** Atomically renames {@code temp} (a file under the store's bookkeeping) to the name. */
    void moveIn(Path temp, Path name) throws IOException;

    /** Deletes the file at the name; false if there was none. */
    boolean deleteFile(Path name) throws IOException;

    /** Deletes the (empty) folder at the name. */
    void deleteFolder(Path name) throws IOException;
  }

  /**
   * Runs {@code action} on the folder that holds the last segment of {@code key} (a checked key,
   * relative to the root).
   *
   * @throws NoSuchFileException when a folder of the key does not exist
   * @throws NotAFolderException when a folder of the key is a file (an object is on the way)
   * @throws PermanentStoreException when a folder of the key is a symbolic link
   */
  <T> T inFolderOf(String operation, String key, Action<T> action) throws IOException {
    beforeAccess.accept(operation, key);
    String[] segments = key.split("/", -1);
    Path name = root.getFileSystem().getPath(segments[segments.length - 1]);
    DirectoryStream<Path> rootStream = Files.newDirectoryStream(root);
    if (!(rootStream instanceof SecureDirectoryStream<Path> secure)) {
      rootStream.close();
      return unsecured(key, segments, action, name);
    }
    SecureDirectoryStream<Path> current = secure;
    try {
      for (int i = 0; i < segments.length - 1; i++) {
        Path segment = root.getFileSystem().getPath(segments[i]);
        SecureDirectoryStream<Path> next;
        try {
          next = current.newDirectoryStream(segment, NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
          throw e;
        } catch (FileSystemException e) {
          // ELOOP (a link, thanks to NOFOLLOW_LINKS) or ENOTDIR: look at the entry itself to say which.
          BasicFileAttributes attributes = attributesIn(current, segment);
          if (attributes == null) {
            throw new NoSuchFileException(segment.toString());
          }
          if (attributes.isSymbolicLink()) {
            throw throughLink(key);
          }
          if (!attributes.isDirectory()) {
            throw new NotAFolderException(String.join("/", java.util.Arrays.copyOf(segments, i + 1)));
          }
          throw e;
        }
        current.close();
        current = next;
      }
      SecureDirectoryStream<Path> folder = current;
      return action.run(new SecureFolder(folder), name);
    } finally {
      current.close();
    }
  }

  /** The attributes of whatever is at {@code path} itself (a link is not followed), or null when nothing is. */
  static @Nullable BasicFileAttributes ownAttributes(Path path) throws IOException {
    try {
      return Files.readAttributes(path, BasicFileAttributes.class, NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private static @Nullable BasicFileAttributes attributesIn(SecureDirectoryStream<Path> dir, Path name)
      throws IOException {
    try {
      return dir.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW_LINKS).readAttributes();
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private <T> T unsecured(String key, String[] segments, Action<T> action, Path name) throws IOException {
    Path folder = root;
    for (int i = 0; i < segments.length - 1; i++) {
      folder = folder.resolve(segments[i]);
      BasicFileAttributes attributes = Files.readAttributes(folder, BasicFileAttributes.class, NOFOLLOW_LINKS);
      if (attributes.isSymbolicLink()) {
        throw throughLink(key);
      }
      if (!attributes.isDirectory()) {
        throw new NotAFolderException(String.join("/", java.util.Arrays.copyOf(segments, i + 1)));
      }
    }
    Path held = folder;
    T result = action.run(new PathFolder(held), name);
    if (!held.equals(root) && !held.toRealPath().equals(held)) {
      throw throughLink(key);
    }
    return result;
  }

  private PermanentStoreException throughLink(String key) {
    return new PermanentStoreException(
        "the key '" + KeyRules.printable(key) + "' passes through a symbolic link under " + root
            + "; the filesystem store never follows links, so that it cannot read or write outside its root");
  }

  /** A folder of the key is a regular file: no object can exist below it. */
  static final class NotAFolderException extends FileSystemException {
    private static final long serialVersionUID = 1L;

    NotAFolderException(String folderKey) {
      super(folderKey, null, "is a file, not a folder");
    }
  }

  private static final class SecureFolder implements Folder {
    private final SecureDirectoryStream<Path> dir;

    SecureFolder(SecureDirectoryStream<Path> dir) {
      this.dir = dir;
    }

    @Override
    public @Nullable BasicFileAttributes attributes(Path name) throws IOException {
      return attributesIn(dir, name);
    }

    @Override
    public SeekableByteChannel openForRead(Path name) throws IOException {
      return dir.newByteChannel(name, Set.of(StandardOpenOption.READ, NOFOLLOW_LINKS));
    }

    @Override
    public void moveIn(Path temp, Path name) throws IOException {
      try (DirectoryStream<Path> from = Files.newDirectoryStream(temp.getParent())) {
        if (!(from instanceof SecureDirectoryStream<Path> source)) {
          throw new FileSystemException(temp.toString(), null, "no secure directory stream for the temporary folder");
        }
        // renameat(2): relative to both folder handles, so the target folder is the one we walked.
        source.move(temp.getFileName(), dir, name);
      }
    }

    @Override
    public boolean deleteFile(Path name) throws IOException {
      try {
        dir.deleteFile(name);
        return true;
      } catch (NoSuchFileException e) {
        return false;
      }
    }

    @Override
    public void deleteFolder(Path name) throws IOException {
      dir.deleteDirectory(name);
    }
  }

  private static final class PathFolder implements Folder {
    private final Path dir;

    PathFolder(Path dir) {
      this.dir = dir;
    }

    @Override
    public @Nullable BasicFileAttributes attributes(Path name) throws IOException {
      return ownAttributes(dir.resolve(name.toString()));
    }

    @Override
    public SeekableByteChannel openForRead(Path name) throws IOException {
      return Files.newByteChannel(dir.resolve(name.toString()), StandardOpenOption.READ, NOFOLLOW_LINKS);
    }

    @Override
    public void moveIn(Path temp, Path name) throws IOException {
      Files.move(temp, dir.resolve(name.toString()), ATOMIC_MOVE);
    }

    @Override
    public boolean deleteFile(Path name) throws IOException {
      return Files.deleteIfExists(dir.resolve(name.toString()));
    }

    @Override
    public void deleteFolder(Path name) throws IOException {
      Files.delete(dir.resolve(name.toString()));
    }
  }

  /** Reads a whole channel, which must hold at most {@code Integer.MAX_VALUE - 8} bytes. */
  static byte[] readAll(SeekableByteChannel channel) throws IOException {
    long size = channel.size();
    if (size > Integer.MAX_VALUE - 8) {
      throw new IOException("object of " + size + " bytes is too large to read into memory");
    }
    ByteBuffer buffer = ByteBuffer.allocate((int) size);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer) < 0) {
        break;
      }
    }
    if (channel.read(ByteBuffer.allocate(1)) > 0) {
      // Grew while we read: objects are replaced by rename, never modified, so this is not ours.
      throw new IOException("the file grew while it was read");
    }
    return buffer.position() == buffer.capacity()
        ? buffer.array()
        : java.util.Arrays.copyOf(buffer.array(), buffer.position());
  }
}
