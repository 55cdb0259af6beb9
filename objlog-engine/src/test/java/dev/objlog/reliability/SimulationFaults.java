package dev.objlog.reliability;

import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.StoredObject;
import dev.objlog.store.TransientStoreException;
import dev.objlog.store.VersionToken;
import dev.objlog.testing.ForwardingObjectStore;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Bugs the simulation's oracle must catch on its own, each as a test-side wrapper around the
 * bucket (below the fault injector, so the logs see it and the fault-free checker does not) or
 * around a pool. Each models a real defect of a store or of background code; {@code
 * SimulationTests} asserts that the simulation fails with each one. Deterministic: every wrapper
 * counts its own calls, so a seed replays.
 *
 * <p>Thread-safety: confined to the simulation's single thread.
 */
final class SimulationFaults {
  private SimulationFaults() {}

  static boolean isSegment(String key) {
    return key.contains("/segments/") && key.endsWith(".plseg");
  }

  static boolean isHead(String key) {
    return key.endsWith("/head.plc");
  }

  /**
   * Rewrites every retention request it stores to trim everything ({@code before_lsn} at the
   * largest signed value; the writer clamps it to next_lsn): a request serialised wrongly, or
   * retention that trims below what was asked.
   */
  static final class RetentionRewritingStore extends ForwardingObjectStore {
    RetentionRewritingStore(ObjectStore delegate) {
      super(delegate);
    }

    private static byte[] rewrite(String key, byte[] bytes) {
      if (!key.endsWith("maintenance/retention.json")) {
        return bytes;
      }
      String json = new String(bytes, StandardCharsets.UTF_8);
      return json.replaceFirst("\"before_lsn\":[0-9]+", "\"before_lsn\":9223372036854775807")
          .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public CreateResult putIfAbsent(String key, byte[] bytes) {
      return delegate.putIfAbsent(key, rewrite(key, bytes));
    }

    @Override
    public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
      return delegate.compareAndSwap(key, expected, rewrite(key, bytes));
    }
  }

  /**
   * Throws a {@link NullPointerException} from every {@code every}-th upload start: a bug in a
   * store adapter (or in code the writer calls) surfacing as an unchecked exception in background
   * work, which the writer wraps into a plain {@code ObjlogException}.
   */
  static final class NullPointerOnUploadStore extends ForwardingObjectStore {
    private final int every;
    private long calls;

    NullPointerOnUploadStore(ObjectStore delegate, int every) {
      super(delegate);
      this.every = every;
    }

    @Override
    public ObjectUpload startUpload(String key) {
      if (++calls % every == 0) {
        throw new NullPointerException("injected: a bug in the store adapter (upload " + calls + ")");
      }
      return delegate.startUpload(key);
    }
  }

  /**
   * Reports every {@code every}-th segment upload as created but keeps nothing: a store that
   * acknowledges a write it did not make durable.
   */
  static final class SegmentDroppingStore extends ForwardingObjectStore {
    private final int every;
    private long uploads;

    SegmentDroppingStore(ObjectStore delegate, int every) {
      super(delegate);
      this.every = every;
    }

    @Override
    public ObjectUpload startUpload(String key) {
      ObjectUpload upload = delegate.startUpload(key);
      if (!isSegment(key) || ++uploads % every != 0) {
        return upload;
      }
      return new ObjectUpload() {
        @Override
        public String key() {
          return key;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
          upload.write(bytes, offset, length);
        }

        @Override
        public long bytesWritten() {
          return upload.bytesWritten();
        }

        @Override
        public CreateResult complete() {
          upload.abort();
          return new CreateResult.Created(new VersionToken("dropped-" + key));
        }

        @Override
        public void abort() {
          upload.abort();
        }
      };
    }
  }

  /**
   * Answers every {@code every}-th head swap with success but keeps the head it replaced (the
   * swap lands with the old content): a lost update, as a store replica that acknowledged a write
   * and then lost it would cause.
   */
  static final class HeadSwapLosingStore extends ForwardingObjectStore {
    private final int every;
    private long swaps;

    HeadSwapLosingStore(ObjectStore delegate, int every) {
      super(delegate);
      this.every = every;
    }

    @Override
    public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
      if (!isHead(key) || ++swaps % every != 0) {
        return delegate.compareAndSwap(key, expected, bytes);
      }
      StoredObject current;
      try {
        current = delegate.get(key);
      } catch (RuntimeException e) {
        return delegate.compareAndSwap(key, expected, bytes);
      }
      return delegate.compareAndSwap(key, expected, current.bytes());
    }
  }

  /**
   * Answers every {@code every}-th head read with the head's previous content under its current
   * version token: a cache or replica serving a stale object as if it were current. A writer
   * that takes over from it swaps successfully onto an old head and re-mints committed LSNs.
   */
  static final class StaleHeadReadStore extends ForwardingObjectStore {
    private final int every;
    private final java.util.Map<String, byte[]> previous = new java.util.HashMap<>();
    private long reads;

    StaleHeadReadStore(ObjectStore delegate, int every) {
      super(delegate);
      this.every = every;
    }

    private void remember(String key) {
      if (isHead(key)) {
        try {
          previous.put(key, delegate.get(key).bytes());
        } catch (RuntimeException e) {
          previous.remove(key);
        }
      }
    }

    private StoredObject stale(StoredObject current) {
      byte[] old = previous.get(current.key());
      if (old == null || !isHead(current.key()) || ++reads % every != 0) {
        return current;
      }
      return new StoredObject(current.metadata(), old);
    }

    @Override
    public CreateResult putIfAbsent(String key, byte[] bytes) {
      remember(key);
      return delegate.putIfAbsent(key, bytes);
    }

    @Override
    public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
      remember(key);
      return delegate.compareAndSwap(key, expected, bytes);
    }

    @Override
    public StoredObject get(String key) {
      return stale(delegate.get(key));
    }

    @Override
    public ConditionalGetResult getIfChanged(String key, VersionToken known) {
      ConditionalGetResult r = delegate.getIfChanged(key, known);
      return r instanceof ConditionalGetResult.Changed c ? new ConditionalGetResult.Changed(stale(c.object())) : r;
    }
  }

  /**
   * Answers a segment read with the bytes of another segment object (the one listed just before
   * it, when there is one): a store or cache that mixes up keys. Readers must refuse it rather
   * than return records nobody committed at those LSNs.
   */
  static final class ForeignSegmentStore extends ForwardingObjectStore {
    ForeignSegmentStore(ObjectStore delegate) {
      super(delegate);
    }

    private String foreign(String key) {
      if (!isSegment(key)) {
        return key;
      }
      String dir = key.substring(0, key.lastIndexOf('/') + 1);
      String previous = null;
      for (String after = ""; after != null; ) {
        ListPage page = delegate.list(dir, after, 1000);
        for (ObjectMetadata m : page.entries()) {
          if (m.key().compareTo(key) >= 0) {
            return previous != null ? previous : key;
          }
          if (isSegment(m.key())) {
            previous = m.key();
          }
        }
        after = page.nextAfterKey();
      }
      return previous != null ? previous : key;
    }

    @Override
    public StoredObject get(String key) {
      StoredObject real = delegate.get(key);
      String other = foreign(key);
      return other.equals(key) ? real : new StoredObject(real.metadata(), delegate.get(other).bytes());
    }

    @Override
    public byte[] getRange(String key, long offset, int length) {
      String other = foreign(key);
      try {
        return delegate.getRange(other, offset, length);
      } catch (RuntimeException e) {
        return delegate.getRange(key, offset, length);
      }
    }

    @Override
    public Optional<ObjectMetadata> head(String key) {
      return delegate.head(foreign(key)).map(m -> new ObjectMetadata(key, m.size(), m.token(), m.lastModified()));
    }
  }

  /**
   * Refuses every {@code every}-th upload start with a transient error: a flaky network. Not a
   * bug; it makes uploads retry often, which a bug in deadline handling needs to show.
   */
  static final class FlakyUploadStore extends ForwardingObjectStore {
    private final int every;
    private long calls;

    FlakyUploadStore(ObjectStore delegate, int every) {
      super(delegate);
      this.every = every;
    }

    @Override
    public ObjectUpload startUpload(String key) {
      if (++calls % every == 0) {
        throw new TransientStoreException("injected: upload start " + calls + " refused (flaky network)", false);
      }
      return delegate.startUpload(key);
    }
  }

  /** Refuses every write with a transient error: a bucket the log can never change. */
  static final class WriteRefusingStore extends ForwardingObjectStore {
    WriteRefusingStore(ObjectStore delegate) {
      super(delegate);
    }

    private static TransientStoreException refused(String key) {
      return new TransientStoreException("injected: every write is refused (" + key + ")", false);
    }

    @Override
    public CreateResult putIfAbsent(String key, byte[] bytes) {
      throw refused(key);
    }

    @Override
    public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
      throw refused(key);
    }

    @Override
    public ObjectUpload startUpload(String key) {
      throw refused(key);
    }

    @Override
    public void delete(Collection<String> keys) {
      throw refused(String.valueOf(keys));
    }
  }

  /**
   * Runs each task, then throws from every {@code every}-th one: background code that lets an
   * unchecked exception escape after doing its work (a real pool buries it in a future or kills
   * the thread, and nobody hears of it).
   */
  static Executor throwingAfterEvery(Executor delegate, int every) {
    long[] tasks = {0};
    return command -> delegate.execute(() -> {
      command.run();
      if (++tasks[0] % every == 0) {
        throw new IllegalStateException("injected: an unchecked exception after background task " + tasks[0]);
      }
    });
  }
}
