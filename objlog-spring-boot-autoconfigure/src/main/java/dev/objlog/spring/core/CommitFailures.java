package dev.objlog.spring.core;

import dev.objlog.AppendResult;
import dev.objlog.CommitIndeterminateException;
import dev.objlog.CommitUndecidableException;
import dev.objlog.ObjlogException;
import dev.objlog.StaleWriterException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * How the template reads a writer's failure (an indeterminate commit to settle, a fence loss, or
 * neither), and the failures it completes unsettled sends with. Stateless.
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

  /** A send that may or may not be in the log: settling it could not decide, for {@code why}. */
  static CommitIndeterminateException unsettled(ObjlogStream stream, int partition, CommitIndeterminateException cause,
      String why, @Nullable Throwable failure) {
    CommitIndeterminateException e = new CommitIndeterminateException("the record sent to partition " + partition
        + " of stream '" + stream.name() + "' may or may not be in the log: " + why + ". Cause: "
        + cause.getMessage(), cause);
    if (failure != null) {
      e.addSuppressed(failure);
    }
    return e;
  }

  /** A send settled as not in the log, which the template gave up sending again. */
  static ObjlogException notCommitted(ObjlogStream stream, int partition, String why, Throwable cause) {
    return new ObjlogException("the record sent to partition " + partition + " of stream '" + stream.name()
        + "' was not committed: " + why, cause);
  }

  /** A send settled as not in the log, which this instance may not send again. */
  static StaleWriterException notTakenOver(ObjlogStream stream, int partition) {
    return new StaleWriterException("the record sent to partition " + partition
        + " of stream '" + stream.name() + "' was not committed, and this instance may not take the partition"
        + " over to send it again (its writer lease is not held here, or another writer fenced it out and"
        + " writer.reopen-after-fence-loss is off)");
  }
}
