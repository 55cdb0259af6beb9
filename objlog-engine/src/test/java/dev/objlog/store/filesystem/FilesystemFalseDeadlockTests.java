package dev.objlog.store.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.reliability.ChildJvm;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * POSIX record locks belong to a process, not a thread, so the kernel's deadlock check refuses a
 * lock request (EDEADLK) when the holder process has some other thread waiting for a lock the
 * requester holds, although no real cycle exists. Two processes writing different keys of one
 * store reach exactly that state whenever each holds one stripe while another of its threads waits
 * for the other's stripe; the store used to fail the write with a permanent "cannot take the key
 * lock" error (seen as a stalled child in {@link FilesystemCrossProcessRaceTests}). The cycle is
 * built on purpose here: this JVM holds stripe X and has a thread blocked on stripe Y, which the
 * child holds, and only then does the child write a key of stripe X.
 */
class FilesystemFalseDeadlockTests {
  private static final Path PROC_LOCKS = Path.of("/proc/locks");

  @TempDir Path dir;

  @Test
  @Timeout(120)
  void aWriteWhoseLockRequestTheKernelCallsADeadlockWaitsAndSucceeds() throws Exception {
    Assumptions.assumeTrue(Files.isReadable(PROC_LOCKS), "needs Linux /proc/locks to see a blocked lock request");
    Path root = dir.resolve("store");
    Files.createDirectories(root);
    String key = "cycle/key";
    int x = LockTable.stripeOf(key);
    int y = (x + 1) % LockTable.STRIPES;
    Path lockDir = root.resolve(".objlog").resolve("locks");
    Files.createDirectories(lockDir);
    Path fileX = lockDir.resolve(LockTable.lockFileName(x));
    Path fileY = lockDir.resolve(LockTable.lockFileName(y));

    try (ChildJvm child = new ChildJvm(FilesystemLockCycleChild.class, root.toString(), key, fileY.toString());
        FileChannel channelX = open(fileX);
        FileChannel channelY = open(fileY)) {
      assertThat(child.awaitLine("HOLDING", 60_000)).as("child holds stripe Y: %s", child.tail()).isTrue();
      FileLock lockX = channelX.lock();
      CompletableFuture<FileLock> waitingForY = CompletableFuture.supplyAsync(() -> {
        try {
          return channelY.lock();
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      String inodeY = String.valueOf(Files.getAttribute(fileY, "unix:ino"));
      awaitBlockedRequest(ProcessHandle.current().pid(), inodeY, waitingForY);

      child.process.getOutputStream().write("GO\n".getBytes(UTF_8));
      child.process.getOutputStream().flush();
      // Until the child's request has met the cycle (refused and backing off) or failed, keep X:
      // releasing earlier would let the write through without ever meeting the cycle.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!child.lines.contains("BACKED-OFF") && child.lines.stream().noneMatch(l -> l.startsWith("RESULT"))) {
        assertThat(System.nanoTime() < deadline && child.process.isAlive())
            .as("the child's write met the lock cycle: %s", child.tail()).isTrue();
        Thread.sleep(2);
      }
      lockX.release();
      assertThat(child.await(60)).as("child exit; output %s", child.tail()).isZero();
      assertThat(child.lines).as("the write refused by the kernel's deadlock check waited and succeeded")
          .contains("RESULT created");
      waitingForY.get(30, TimeUnit.SECONDS).release();
    }
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      assertThat(new String(store.get(key).bytes(), UTF_8)).isEqualTo("child");
    }
  }

  private static FileChannel open(Path file) throws java.io.IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /** Waits until /proc/locks lists a blocked request ({@code ->}) of {@code pid} on the inode. */
  private static void awaitBlockedRequest(long pid, String inode, CompletableFuture<?> request) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      for (String line : Files.readAllLines(PROC_LOCKS)) {
        String[] f = line.trim().split("\\s+");
        if (f.length >= 7 && f[1].equals("->") && f[5].equals(String.valueOf(pid)) && f[6].endsWith(":" + inode)) {
          return;
        }
      }
      assertThat(request).as("our request for stripe Y must block, the child holds it").isNotDone();
      assertThat(System.nanoTime()).as("our blocked request shows in /proc/locks").isLessThan(deadline);
      Thread.sleep(2);
    }
  }
}
