package dev.objlog.spring.core;

import dev.objlog.AppendResult;
import dev.objlog.CommitIndeterminateException;
import dev.objlog.CommitUndecidableException;
import dev.objlog.StaleWriterException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * How the template reads a writer's failure: an indeterminate commit to settle, a fence loss, or
 * neither. Stateless.
 */
final class CommitFailures {
  private CommitFailures() {}

  /** The indeterminate commit in {@code failure}'s causes, else null. */
  static @Nullable CommitIndeterminateException indeterminate(@Nullable Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof CommitIndeterminateException e) {
        return e;
      }
    }
    return null;
  }

  static boolean isFenceLoss(@Nullable Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof StaleWriterException) {
        return true;
      }
    }
    return false;
  }

  /** The indeterminate failure of a commit the template settles (not an undecidable one), else null. */
  static @Nullable CommitIndeterminateException toSettle(Throwable failure) {
    return unwrap(failure) instanceof CommitIndeterminateException e && !(e instanceof CommitUndecidableException)
        ? e : null;
  }

  /** The indeterminate failure of {@code appended}'s commit, if it ended so, else null. */
  static @Nullable CommitIndeterminateException ownIndeterminate(AppendResult appended) {
    CompletableFuture<?> committed = appended.committed();
    if (!committed.isCompletedExceptionally()) {
      return null;
    }
    Throwable failure = committed.handle((r, e) -> e).getNow(null);
    return failure == null ? null : toSettle(failure);
  }

  static Throwable unwrap(Throwable t) {
    return (t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null
        ? t.getCause()
        : t;
  }
}
