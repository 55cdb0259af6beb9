package dev.objlog.store.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The other process of {@link FilesystemFalseDeadlockTests}: opens the store, holds the lock file
 * it is given (as a thread of this process inside another stripe's write would), prints {@code
 * HOLDING}, and on {@code GO} from stdin writes {@code key} through the store on a second thread.
 * It prints {@code BACKED-OFF} once that thread is seen sleeping inside the lock table (its lock
 * request was refused and it waits to ask again) and {@code RESULT created|exists|failed <error>}
 * when the write returns.
 *
 * <p>Args: {@code <root> <key> <lockFileToHold>}.
 */
public final class FilesystemLockCycleChild {
  private FilesystemLockCycleChild() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    String key = args[1];
    Path held = Path.of(args[2]);
    BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, UTF_8));
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root);
        FileChannel channel =
            FileChannel.open(held, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      FileLock lock = channel.lock();
      System.out.println("HOLDING");
      System.out.flush();
      if (!"GO".equals(stdin.readLine())) {
        throw new IllegalStateException("expected GO on stdin");
      }
      AtomicReference<String> result = new AtomicReference<>();
      Thread writer = new Thread(() -> {
        try {
          result.set(store.putIfAbsent(key, "child".getBytes(UTF_8)).created() ? "created" : "exists");
        } catch (RuntimeException e) {
          result.set("failed " + e);
        }
      }, "cycle-writer");
      writer.start();
      boolean reported = false;
      while (writer.isAlive()) {
        if (!reported && writer.getState() == Thread.State.TIMED_WAITING
            && Arrays.stream(writer.getStackTrace()).anyMatch(f -> f.getClassName().equals(LockTable.class.getName()))) {
          System.out.println("BACKED-OFF");
          System.out.flush();
          reported = true;
        }
        Thread.sleep(1);
      }
      System.out.println("RESULT " + result.get());
      System.out.flush();
      lock.release();
    }
    System.out.println("DONE");
    System.out.flush();
  }
}
