package dev.objlog.store.filesystem;

import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.TransientStoreException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Striped locks that exclude both other threads and other processes. A {@link FileLock} is held
 * on behalf of the whole JVM (a second lock on the same file from the same JVM throws rather than
 * waits), so each stripe pairs a JVM-wide {@link ReentrantLock} with the file lock, and every store
 * instance on one root shares one table: the table is registered per real root path and
 * reference-counted.
 */
final class LockTable {
  /** Fixed because every process on one root must map a key to the same lock file. */
  static final int STRIPES = 64;

  private static final Map<Path, LockTable> TABLES = new HashMap<>();

  private final Path root;
  private final Path lockDir;
  private final ReentrantLock[] jvmLocks = new ReentrantLock[STRIPES + 1];
  private final FileChannel[] channels = new FileChannel[STRIPES + 1];
  private int users;

  private LockTable(Path root, Path lockDir) {
    this.root = root;
    this.lockDir = lockDir;
    for (int i = 0; i < jvmLocks.length; i++) {
      jvmLocks[i] = new ReentrantLock();
    }
  }

  static LockTable acquire(Path realRoot, Path lockDir) {
    synchronized (TABLES) {
      LockTable table = TABLES.computeIfAbsent(realRoot, r -> new LockTable(r, lockDir));
      table.users++;
      return table;
    }
  }

  void release() {
    synchronized (TABLES) {
      if (--users > 0) {
        return;
      }
      TABLES.remove(root);
      for (int i = 0; i < channels.length; i++) {
        jvmLocks[i].lock();
        try {
          closeQuietly(channels[i]);
          channels[i] = null;
        } finally {
          jvmLocks[i].unlock();
        }
      }
    }
  }

  static int stripeOf(String key) {
    return Math.floorMod(key.hashCode() * 0x9E3779B9, STRIPES);
  }

  /** Runs {@code action} holding the lock of {@code key}'s stripe. */
  <T> T withKeyLock(String key, Supplier<T> action) {
    return withStripe(stripeOf(key), "key lock", action);
  }

  /** Runs {@code action} holding the lock that guards the generation counter. */
  <T> T withGenerationLock(Supplier<T> action) {
    return withStripe(STRIPES, "generation lock", action);
  }

  private <T> T withStripe(int stripe, String what, Supplier<T> action) {
    ReentrantLock jvmLock = jvmLocks[stripe];
    try {
      jvmLock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientStoreException("interrupted while waiting for the " + what, false, e);
    }
    try {
      FileLock fileLock = lockFile(stripe, what);
      try {
        return action.get();
      } finally {
        try {
          fileLock.release();
        } catch (ClosedChannelException ignored) {
          // Closing the channel (an interrupt does that) has released the lock already.
        } catch (IOException e) {
          closeQuietly(channels[stripe]);
        }
      }
    } finally {
      jvmLock.unlock();
    }
  }

  /**
   * The name of a stripe's lock file under the lock folder; every process on one root must agree
   * on it.
   */
  static String lockFileName(int stripe) {
    return stripe == STRIPES ? "generation.lock" : String.format("stripe-%02d.lock", stripe);
  }

  private FileLock lockFile(int stripe, String what) {
    int refused = 0;
    for (int attempt = 0; ; attempt++) {
      try {
        FileChannel channel = channels[stripe];
        if (channel == null || !channel.isOpen()) {
          Files.createDirectories(lockDir);
          channel =
              FileChannel.open(
                  lockDir.resolve(lockFileName(stripe)), StandardOpenOption.CREATE, StandardOpenOption.READ,
                  StandardOpenOption.WRITE);
          channels[stripe] = channel;
        }
        try {
          return channel.lock();
        } catch (ClosedChannelException e) {
          throw e;
        } catch (IOException refusal) {
          FileLock lock = afterRefusal(channel, what, refusal, refused++);
          if (lock != null) {
            return lock;
          }
        }
      } catch (ClosedChannelException e) {
        // An interrupt closed the channel; reopen it unless this thread is the interrupted one.
        if (Thread.currentThread().isInterrupted() || attempt >= 3) {
          throw new TransientStoreException("interrupted while taking the " + what, false, e);
        }
      } catch (IOException e) {
        throw new PermanentStoreException(
            "cannot take the " + what + " under " + lockDir + ": " + e
                + "; check that the store's root is writable",
            e);
      }
    }
  }

  /**
   * A blocking lock request was refused, typically with EDEADLK ("Resource deadlock avoided").
   * POSIX record locks belong to the whole process, so the kernel's deadlock check sees a cycle
   * whenever another process waits for a stripe this process holds while some other thread of
   * this process waits for a stripe that process holds, although no thread here waits for anything
   * while holding a stripe except for the generation lock, which is taken last and never waits.
   * Such a refusal is false and lasts only until one of the holders releases, so back off and ask
   * again; a non-blocking attempt tells it from a real failure of the lock file, which it also
   * reports (a refusal never comes from a non-blocking request) and which must not be retried.
   *
   * @return the lock if the non-blocking attempt got it, else null after backing off
   */
  private static @org.jspecify.annotations.Nullable FileLock afterRefusal(
      FileChannel channel, String what, IOException refusal, int refused) throws IOException {
    if (Thread.currentThread().isInterrupted()) {
      throw new TransientStoreException("interrupted while waiting for the " + what, false, refusal);
    }
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (IOException real) {
      real.addSuppressed(refusal);
      throw real;
    }
    if (lock != null) {
      return lock;
    }
    try {
      // Short: the holders whose requests made the cycle release within one write.
      Thread.sleep(Math.min(1 + refused, 10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TransientStoreException("interrupted while waiting for the " + what, false, e);
    }
    return null;
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // Closing a lock file cannot lose data.
      }
    }
  }
}
