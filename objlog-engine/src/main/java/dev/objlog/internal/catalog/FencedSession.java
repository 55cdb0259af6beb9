package dev.objlog.internal.catalog;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import dev.objlog.StaleWriterException;
import dev.objlog.TimestampOrderException;
import dev.objlog.format.catalog.Head;
import dev.objlog.format.catalog.Id128;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.store.CasResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.StoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A writer's hold on a partition after a successful takeover: the fence (epoch and writer id)
 * and the head it last committed, with that head's store token. Commits are compare-and-swaps
 * against that token, so a session whose fence was taken over can never write behind the new
 * owner.
 *
 * <p>{@link #publish} is a group commit: all segments given are appended in memory, each through
 * the normal carry/cascade, and committed by one head compare-and-swap, which raises the
 * generation by one and the segment counts by the group size. The bytes stay catformat v1.
 *
 * <p>Error contract of {@link #publish}:
 * <ul>
 *   <li>Preconditions ({@link InvalidArgumentException}, {@link TimestampOrderException}, {@link
 *       CatalogConflictException} for a base LSN that is not the next LSN, {@link
 *       StaleWriterException} for a segment minted under another epoch, {@link
 *       CatalogExhaustedException}): nothing was written, the session stays usable.
 *   <li>{@link TransientStoreException}: definitely not committed (a page write failed, or the
 *       head read back unchanged); retry the same segments.
 *   <li>{@link StaleWriterException}: the fence moved; terminal.
 *   <li>{@link CatalogConflictException}: another segment owns the range; terminal.
 *   <li>{@link CommitIndeterminateException}: the commit may or may not have happened; terminal,
 *       and the writer must never mint a different segment for that range.
 *   <li>{@link InvalidPublishResultException} or {@link CorruptObjectException}: terminal.
 * </ul>
 * After a terminal failure every later call fails the same way. Retention application (the next
 * change to the head a writer makes) will commit through the same compare-and-swap loop.
 *
 * <p>Thread-safety: safe for concurrent use; publishes are serialised by an internal lock.
 */
public final class FencedSession {
  private final PartitionCatalog catalog;
  private final Id128 writerId;
  private final long writerEpoch;
  private final ReentrantLock lock = new ReentrantLock();

  private Head head;
  private byte[] headBytes;
  private VersionToken token;
  private @Nullable RuntimeException terminal;

  FencedSession(PartitionCatalog catalog, Id128 writerId, Head head, byte[] headBytes,
      VersionToken token) {
    this.catalog = catalog;
    this.writerId = writerId;
    this.writerEpoch = head.writerEpoch();
    this.head = head;
    this.headBytes = headBytes;
    this.token = token;
  }

  public Id128 writerId() {
    return writerId;
  }

  /** The fence epoch this session holds (u64). */
  public long writerEpoch() {
    return writerEpoch;
  }

  public PartitionCatalog catalog() {
    return catalog;
  }

  /** The head this session last committed or adopted, with its token. */
  public HeadSnapshot head() {
    lock.lock();
    try {
      return new HeadSnapshot(head, token);
    } finally {
      lock.unlock();
    }
  }

  /** False once a terminal failure made the session unusable. */
  public boolean isUsable() {
    lock.lock();
    try {
      return terminal == null;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Publishes {@code segments} (in LSN order, contiguous from the head's next LSN) with one head
   * compare-and-swap, after storing every page they seal. See the class comment for errors.
   */
  public PublishResult publish(List<LeafEntry> segments) {
    List<LeafEntry> group = List.copyOf(segments);
    lock.lock();
    try {
      failIfTerminal();
      Head previous = head;
      byte[] previousBytes = headBytes;
      Mutation mutation = CatalogMutations.append(previous, group, catalog.keys());
      try {
        CatalogMutations.checkPublishResult(previous, mutation.head(), group);
      } catch (InvalidPublishResultException e) {
        throw fail(e);
      }
      try {
        catalog.putPages(mutation.pages());
      } catch (CorruptObjectException e) {
        throw fail(e);
      }
      return commit(previousBytes, mutation, group);
    } finally {
      lock.unlock();
    }
  }

  /** What a head read after a failed or ambiguous swap says about our commit. */
  private enum Seen {
    /** Our commit is in the head. */
    COMMITTED,
    /** The head is still the one we built on: not committed. */
    UNCHANGED
  }

  private PublishResult commit(byte[] previousBytes, Mutation mutation, List<LeafEntry> group) {
    CatalogOptions options = catalog.options();
    int attempts = options.publishAttempts();
    VersionToken expected = token;
    StoreException lastErr = null;
    boolean maybeApplied = false;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try {
        CasResult result =
            catalog.store().compareAndSwap(catalog.headKey(), expected, mutation.headBytes());
        if (result instanceof CasResult.Swapped swapped) {
          adopt(mutation.head(), mutation.headBytes(), swapped.token());
          return new PublishResult(mutation.head(), group.size(), false);
        }
        StoredObject current = ((CasResult.Conflict) result).current();
        if (see(current, previousBytes, mutation, group, maybeApplied) == Seen.COMMITTED) {
          return new PublishResult(mutation.head(), group.size(), true);
        }
        // Same content under a new token: nothing of ours landed; swap against the new token.
        expected = current.token();
        lastErr = null;
      } catch (IndeterminateStoreException e) {
        lastErr = e;
        maybeApplied = true;
      } catch (TransientStoreException e) {
        lastErr = e;
        maybeApplied |= e.mayHaveTakenEffect();
      }
      if (attempt < attempts
          && !catalog.pause(options.publishInitialBackoff(), options.publishMaxBackoff(), attempt)) {
        break;
      }
    }
    if (lastErr == null) {
      throw fail(new CatalogConflictException("catalog: the head of " + catalog.headKey()
          + " kept changing its token without changing its content"));
    }
    StoredObject current;
    try {
      current = catalog.store().get(catalog.headKey());
    } catch (ObjectNotFoundException e) {
      current = null;
    } catch (StoreException e) {
      e.addSuppressed(lastErr);
      if (!maybeApplied) {
        // No attempt could have taken effect: definitely not committed.
        throw new TransientStoreException("catalog: publish of " + describe(group)
            + " failed and was not committed", false, e);
      }
      throw fail(new CommitIndeterminateException("catalog: publish of " + describe(group)
          + " may or may not have committed: the head swap got no clear answer and the head"
          + " could not be read back", e));
    }
    if (see(current, previousBytes, mutation, group, maybeApplied) == Seen.COMMITTED) {
      return new PublishResult(mutation.head(), group.size(), true);
    }
    token = current.token();
    throw new TransientStoreException("catalog: publish of " + describe(group)
        + " was not committed (the head is unchanged) after " + attempts + " attempts", false,
        lastErr);
  }

  /**
   * Reconciles with the head the store holds (PROTOCOLS.md §5.2): our exact bytes, or our
   * group's last segment reachable exactly → committed; another fence → stale writer; the head
   * we built on → unchanged; anything else → another segment owns the range.
   */
  private Seen see(@Nullable StoredObject current, byte[] previousBytes, Mutation mutation,
      List<LeafEntry> group, boolean maybeApplied) {
    if (current == null) {
      throw fail(new CatalogConflictException("catalog: the head " + catalog.headKey()
          + " disappeared during a publish"));
    }
    if (Arrays.equals(current.bytes(), mutation.headBytes())) {
      adopt(mutation.head(), mutation.headBytes(), current.token());
      return Seen.COMMITTED;
    }
    Head observed;
    try {
      observed = catalog.decodeHead(current.bytes());
    } catch (CorruptObjectException e) {
      throw fail(e);
    }
    boolean sameFence = observed.writerEpoch() == writerEpoch && observed.writerId().equals(writerId);
    LeafEntry last = group.get(group.size() - 1);
    if (maybeApplied || !sameFence) {
      // Only an earlier attempt of ours can have put the group in the head; skip the page reads
      // when none could have taken effect and the fence is still ours.
      if (Long.compareUnsigned(last.baseLsn(), observed.oldestLsn()) < 0
          && Long.compareUnsigned(last.lastLsn(), observed.nextLsn()) < 0
          && maybeApplied) {
        throw fail(new CommitIndeterminateException("catalog: publish of " + describe(group)
            + " cannot be reconciled: retention already trimmed its range"));
      }
      boolean committed;
      try {
        committed = catalog.holds(observed, last);
      } catch (StoreException | CorruptObjectException e) {
        throw fail(new CommitIndeterminateException("catalog: publish of " + describe(group)
            + " cannot be reconciled: reading the tree failed", e));
      }
      if (committed) {
        adopt(observed, current.bytes(), current.token());
        if (!sameFence) {
          // Committed, then taken over: this publish stands, the next one must not.
          terminal = new StaleWriterException("catalog: writer " + writerId + " epoch "
              + Long.toUnsignedString(writerEpoch) + " was taken over by epoch "
              + Long.toUnsignedString(observed.writerEpoch()));
        }
        return Seen.COMMITTED;
      }
    }
    if (!sameFence) {
      throw fail(new StaleWriterException("catalog: writer " + writerId + " epoch "
          + Long.toUnsignedString(writerEpoch) + " was taken over by writer "
          + observed.writerId() + " epoch " + Long.toUnsignedString(observed.writerEpoch())));
    }
    if (Arrays.equals(current.bytes(), previousBytes)) {
      return Seen.UNCHANGED;
    }
    throw fail(new CatalogConflictException("catalog: publish of " + describe(group)
        + " conflicts: the head moved to next LSN " + Long.toUnsignedString(observed.nextLsn())
        + " generation " + Long.toUnsignedString(observed.generation())
        + " under the same fence without this group"));
  }

  private void adopt(Head newHead, byte[] bytes, VersionToken newToken) {
    head = newHead;
    headBytes = bytes;
    token = newToken;
    catalog.cache(new HeadSnapshot(newHead, newToken));
  }

  private RuntimeException fail(RuntimeException e) {
    terminal = e;
    return e;
  }

  private void failIfTerminal() {
    RuntimeException cause = terminal;
    if (cause == null) {
      return;
    }
    String message = "catalog session of writer " + writerId + " is unusable: " + cause.getMessage();
    RuntimeException again;
    if (cause instanceof StaleWriterException) {
      again = new StaleWriterException(message);
      again.initCause(cause);
    } else if (cause instanceof CommitIndeterminateException) {
      again = new CommitIndeterminateException(message, cause);
    } else if (cause instanceof CatalogConflictException) {
      again = new CatalogConflictException(message, cause);
    } else if (cause instanceof CorruptObjectException) {
      again = new CorruptObjectException(message, cause);
    } else {
      again = new ObjlogException(message, cause);
    }
    throw again;
  }

  private static String describe(List<LeafEntry> group) {
    LeafEntry first = group.get(0);
    LeafEntry last = group.get(group.size() - 1);
    return group.size() + " segment(s) [" + Long.toUnsignedString(first.baseLsn()) + ".."
        + Long.toUnsignedString(last.lastLsn()) + "]";
  }

  @Override
  public String toString() {
    return "FencedSession[" + catalog.headKey() + ", writer " + writerId + ", epoch "
        + Long.toUnsignedString(writerEpoch) + "]";
  }
}
