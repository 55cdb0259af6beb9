package dev.objlog.internal.read;

import dev.objlog.read.ReadResult;
import dev.objlog.read.Tailer;
import java.util.concurrent.CompletableFuture;

/**
 * {@code tailer.next()} running on a daemon thread of its own, so that a test can wait until that
 * thread is parked where it means to hold it and then act from the test thread.
 *
 * <p>Thread-safety: the future is completed by the thread; read both from any thread.
 */
record NextOnItsOwnThread(Thread thread, CompletableFuture<ReadResult> result) {
  static NextOnItsOwnThread start(Tailer tailer) {
    CompletableFuture<ReadResult> result = new CompletableFuture<>();
    Thread th = new Thread(() -> {
      try {
        result.complete(tailer.next());
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    }, "tailer-next");
    th.setDaemon(true);
    th.start();
    return new NextOnItsOwnThread(th, result);
  }
}
