package dev.objlog.internal.catalog;

import dev.objlog.CommitIndeterminateException;
import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogException;
import dev.objlog.RetentionRegressionException;
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
 * After a terminal failure every later call fails the same way. {@link #applyRetention} commits
 * through the same compare-and-swap loop; see its comment for how it differs on unknown outcomes.
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
  /** A retention whose head swap had an unknown outcome; settled before the next change. */
  private @Nullable Retain pendingRetention;

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
   * compare-and-swap, after storing every page they seal, trying each page write and the swap up
   * to {@link CatalogOptions#publishAttempts} times. See the class comment for errors.
   */
  public PublishResult publish(List<LeafEntry> segments) {
    return publish(segments, catalog.options().publishAttempts());
  }

  /**
   * One try of a publish for a caller that owns the retries (the writer's publisher, with its
   * deadline): each page write and the head swap is sent once (the store adapter may still retry
   * the request under its own policy), and an unclear swap is reconciled by reading the head back
   * once. The answers are those of {@link #publish(List)}: committed (a result), definitely not
   * committed ({@link TransientStoreException}: try the same segments again, the session stays
   * usable and swaps against the token it saw), or terminal. A head whose token moved without
   * its content changing is "not committed" here, with the new token adopted.
   */
  public PublishResult publishOnce(List<LeafEntry> segments) {
    return publish(segments, 1);
  }

  private PublishResult publish(List<LeafEntry> segments, int attempts) {
    List<LeafEntry> group = List.copyOf(segments);
    lock.lock();
    try {
      failIfTerminal();
      settlePendingRetention();
      Head previous = head;
      Mutation mutation = CatalogMutations.append(previous, group, catalog.keys());
      try {
        CatalogMutations.checkPublishResult(previous, mutation.head(), group);
      } catch (InvalidPublishResultException e) {
        throw fail(e);
      }
      try {
        catalog.putPages(mutation.pages(), attempts);
      } catch (CorruptObjectException e) {
        throw fail(e);
      }
      boolean reconciled = commit(new Publish(headBytes, mutation, group), attempts);
      return new PublishResult(mutation.head(), group.size(), reconciled);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Applies retention (FORMAT.md §2.10) through this session's fence: trimmed page copies are
   * stored create-only, then one head compare-and-swap commits the new floor. A retention whose
   * outcome an earlier call left unknown is settled first (by reading the head back); if it was
   * this very request and it landed, the result reports it as applied.
   *
   * <p>Errors: {@link RetentionRegressionException} or {@link InvalidArgumentException} (nothing
   * written, session usable); {@link TransientStoreException} (definitely not applied, retry);
   * {@link CommitIndeterminateException} (may have applied; <b>not</b> terminal: the next call
   * of this method or of {@link #publish} settles it first, and fails the same way while the head
   * cannot be read); {@link StaleWriterException}, {@link CatalogConflictException}, {@link
   * CorruptObjectException} (terminal, as for publish).
   *
   * @param policyVersion the request's policy version (u64, positive)
   * @param beforeLsn trim every segment that ends below this LSN (u64); clamped to next_lsn
   */
  public RetentionApplyResult applyRetention(long policyVersion, long beforeLsn) {
    lock.lock();
    try {
      failIfTerminal();
      Retain settled = settlePendingRetention();
      if (settled != null && settled.policyVersion == policyVersion) {
        return new RetentionApplyResult(true, policyVersion, head.appliedRetentionLsn(),
            head.oldestLsn(), head, true);
      }
      CatalogMutations.Retention retention = CatalogMutations.retain(head, policyVersion,
          beforeLsn, catalog.keys(), catalog::loadChild);
      Mutation mutation = retention.mutation();
      if (mutation == null) {
        return new RetentionApplyResult(false, head.appliedRetentionVersion(),
            head.appliedRetentionLsn(), head.oldestLsn(), head, false);
      }
      catalog.putPages(mutation.pages());
      Retain change = new Retain(headBytes, mutation, policyVersion, retention.targetLsn());
      boolean reconciled = commit(change, catalog.options().publishAttempts());
      return new RetentionApplyResult(true, policyVersion, retention.targetLsn(),
          mutation.head().oldestLsn(), mutation.head(), reconciled);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Settles a retention left indeterminate by reading the head back.
   *
   * @return the settled change if it turned out committed, else null
   * @throws CommitIndeterminateException if the head still cannot be read (still pending)
   */
  private @Nullable Retain settlePendingRetention() {
    Retain pending = pendingRetention;
    if (pending == null) {
      return null;
    }
    StoredObject current;
    try {
      current = catalog.store().get(catalog.headKey());
    } catch (ObjectNotFoundException e) {
      current = null;
    } catch (StoreException e) {
      throw new CommitIndeterminateException("catalog: " + pending.describe()
          + " has an unknown outcome and the head still cannot be read", e);
    }
    pendingRetention = null;
    if (see(current, pending, true) == Seen.COMMITTED) {
      return pending;
    }
    token = current == null ? token : current.token();
    return null;
  }

  /** What a head read after a failed or ambiguous swap says about our commit. */
  private enum Seen {
    /** Our commit is in the head. */
    COMMITTED,
    /** The head is still the one we built on: not committed. */
    UNCHANGED
  }

  /** One head change being committed, and how to recognise it in a head read back. */
  private abstract static class Change {
    final byte[] previousBytes;
    final Mutation mutation;

    Change(byte[] previousBytes, Mutation mutation) {
      this.previousBytes = previousBytes;
      this.mutation = mutation;
    }

    abstract String describe();

    /**
     * Whether {@code observed} (not byte-identical to our head) contains this change.
     *
     * @param maybeApplied whether an earlier attempt may have taken effect
     */
    abstract boolean landed(Head observed, boolean maybeApplied, boolean sameFence);

    /** Whether an unknown outcome makes the session unusable. */
    abstract boolean terminalWhenIndeterminate();
  }

  private final class Publish extends Change {
    private final List<LeafEntry> group;

    Publish(byte[] previousBytes, Mutation mutation, List<LeafEntry> group) {
      super(previousBytes, mutation);
      this.group = group;
    }

    @Override
    String describe() {
      return "publish of " + FencedSession.describe(group);
    }

    @Override
    boolean landed(Head observed, boolean maybeApplied, boolean sameFence) {
      if (!maybeApplied && sameFence) {
        // Only an earlier attempt of ours can have put the group in the head; skip the page
        // reads when none could have taken effect and the fence is still ours.
        return false;
      }
      LeafEntry last = group.get(group.size() - 1);
      if (Long.compareUnsigned(last.baseLsn(), observed.oldestLsn()) < 0
          && Long.compareUnsigned(last.lastLsn(), observed.nextLsn()) < 0
          && maybeApplied) {
        throw fail(new CommitIndeterminateException("catalog: " + describe()
            + " cannot be reconciled: retention already trimmed its range"));
      }
      try {
        return catalog.holds(observed, last);
      } catch (StoreException | CorruptObjectException e) {
        throw fail(new CommitIndeterminateException("catalog: " + describe()
            + " cannot be reconciled: reading the tree failed", e));
      }
    }

    @Override
    boolean terminalWhenIndeterminate() {
      return true;
    }
  }

  private static final class Retain extends Change {
    final long policyVersion;
    final long targetLsn;

    Retain(byte[] previousBytes, Mutation mutation, long policyVersion, long targetLsn) {
      super(previousBytes, mutation);
      this.policyVersion = policyVersion;
      this.targetLsn = targetLsn;
    }

    @Override
    String describe() {
      return "retention (version " + Long.toUnsignedString(policyVersion) + ", before "
          + Long.toUnsignedString(targetLsn) + ")";
    }

    @Override
    boolean landed(Head observed, boolean maybeApplied, boolean sameFence) {
      // Only this session changes the head under its fence, and applied versions only rise.
      return observed.appliedRetentionVersion() == policyVersion
          && observed.appliedRetentionLsn() == targetLsn;
    }

    @Override
    boolean terminalWhenIndeterminate() {
      return false;
    }
  }

  /**
   * The compare-and-swap loop with reconciliation (PROTOCOLS.md §5.2).
   *
   * @param attempts compare-and-swap tries before the head is read back (1: the caller retries)
   * @return true if the commit was recognised by reading the head back rather than a clean swap
   */
  private boolean commit(Change change, int attempts) {
    CatalogOptions options = catalog.options();
    VersionToken expected = token;
    StoreException lastErr = null;
    boolean maybeApplied = false;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      try {
        CasResult result = catalog.store().compareAndSwap(catalog.headKey(), expected,
            change.mutation.headBytes());
        if (result instanceof CasResult.Swapped swapped) {
          adopt(change.mutation.head(), change.mutation.headBytes(), swapped.token());
          return false;
        }
        StoredObject current = ((CasResult.Conflict) result).current();
        if (see(current, change, maybeApplied) == Seen.COMMITTED) {
          return true;
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
    if (lastErr == null && attempts == 1) {
      // The caller owns the retries: nothing of ours landed; its next try swaps against this token.
      token = expected;
      throw new TransientStoreException("catalog: " + change.describe() + " was not committed: the head's"
          + " token changed without its content", false);
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
        throw new TransientStoreException("catalog: " + change.describe()
            + " failed and was not committed", false, e);
      }
      CommitIndeterminateException unknown = new CommitIndeterminateException("catalog: "
          + change.describe() + " may or may not have committed: the head swap got no clear"
          + " answer and the head could not be read back", e);
      if (change.terminalWhenIndeterminate()) {
        throw fail(unknown);
      }
      pendingRetention = (Retain) change;
      throw unknown;
    }
    if (see(current, change, maybeApplied) == Seen.COMMITTED) {
      return true;
    }
    token = current.token();
    throw new TransientStoreException("catalog: " + change.describe()
        + " was not committed (the head is unchanged) after " + attempts + " attempts", false,
        lastErr);
  }

  /**
   * Reconciles with the head the store holds (PROTOCOLS.md §5.2): our exact bytes, or our
   * change recognisable in the head → committed; another fence → stale writer; the head we built
   * on → unchanged; anything else → another change owns the head.
   */
  private Seen see(@Nullable StoredObject current, Change change, boolean maybeApplied) {
    if (current == null) {
      throw fail(new CatalogConflictException("catalog: the head " + catalog.headKey()
          + " disappeared during a " + change.describe()));
    }
    if (Arrays.equals(current.bytes(), change.mutation.headBytes())) {
      adopt(change.mutation.head(), change.mutation.headBytes(), current.token());
      return Seen.COMMITTED;
    }
    Head observed;
    try {
      observed = catalog.decodeHead(current.bytes());
    } catch (CorruptObjectException e) {
      throw fail(e);
    }
    boolean sameFence = observed.writerEpoch() == writerEpoch && observed.writerId().equals(writerId);
    if (change.landed(observed, maybeApplied, sameFence)) {
      adopt(observed, current.bytes(), current.token());
      if (!sameFence) {
        // Committed, then taken over: this change stands, the next one must not.
        terminal = new StaleWriterException("catalog: writer " + writerId + " epoch "
            + Long.toUnsignedString(writerEpoch) + " was taken over by epoch "
            + Long.toUnsignedString(observed.writerEpoch()));
      }
      return Seen.COMMITTED;
    }
    if (!sameFence) {
      throw fail(new StaleWriterException("catalog: writer " + writerId + " epoch "
          + Long.toUnsignedString(writerEpoch) + " was taken over by writer "
          + observed.writerId() + " epoch " + Long.toUnsignedString(observed.writerEpoch())));
    }
    if (Arrays.equals(current.bytes(), change.previousBytes)) {
      return Seen.UNCHANGED;
    }
    throw fail(new CatalogConflictException("catalog: " + change.describe()
        + " conflicts: the head moved to next LSN " + Long.toUnsignedString(observed.nextLsn())
        + " generation " + Long.toUnsignedString(observed.generation())
        + " under the same fence without it"));
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
