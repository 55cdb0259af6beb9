package dev.objlog.replica;

import dev.objlog.CorruptObjectException;
import dev.objlog.InvalidArgumentException;
import dev.objlog.Objlog;
import dev.objlog.coordination.CasDocument;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.read.CheckpointInvalidException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * A {@link CursorStore} of one compare-and-swapped document per partition, in any object store:
 * the checkpoint JSON (PROTOCOLS.md §5.5) with {@code updated_unix_ms} appended, e.g. {@code
 * {"version":1,"stream_id":"demo/orders","partition":7,"next_lsn":4,"updated_unix_ms":1700000000000}}.
 * The version is the store's token.
 *
 * <p>A save makes one swap; a reply the store reports as ambiguous is settled by reading the
 * document back (the save time makes the bytes this save's own), and when that cannot tell the
 * {@link IndeterminateStoreException} propagates.
 *
 * <p>Thread-safety: safe for concurrent use, within and across processes.
 */
final class DocumentCursorStore implements CursorStore {
  static final int MAX_ID_LENGTH = 255;
  private static final CasDocument.Codec<byte[]> RAW = CasDocument.Codec.of(b -> b, b -> b);
  private static final CasDocument.Retries ONE_ATTEMPT = CasDocument.Retries.immediate(1).indeterminateOnly();

  private final ObjectStore store;
  private final IntFunction<String> keyOf;
  private final Clock clock;

  DocumentCursorStore(ObjectStore store, IntFunction<String> keyOf, Clock clock) {
    this.store = Objects.requireNonNull(store, "store");
    this.keyOf = Objects.requireNonNull(keyOf, "keyOf");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  static DocumentCursorStore inBucket(Objlog log, String replicaId) {
    checkReplicaId(replicaId);
    return new DocumentCursorStore(log.store(),
        p -> ConsumerCheckpointDocument.key(partitionKeys(log, p).catalogDir(), replicaId),
        log.options().clock());
  }

  static DocumentCursorStore inDirectory(Path directory, String replicaId) {
    Objects.requireNonNull(directory, "directory");
    checkReplicaId(replicaId);
    return new DocumentCursorStore(FilesystemObjectStore.open(directory),
        p -> replicaId + "/" + PartitionKeys.partitionDir(p) + "/checkpoint.json", Clock.systemUTC());
  }

  /** The keys of one partition of {@code log}, from its public options. */
  static PartitionKeys partitionKeys(Objlog log, int partition) {
    var o = log.options();
    return PartitionKeys.of(dev.objlog.format.key.KeyPrefixes.resolve(o.prefix(), o.catalogPrefix(),
        o.segmentRootPrefix()), log.streamId(), partition);
  }

  static void checkReplicaId(String id) {
    Objects.requireNonNull(id, "replicaId");
    if (id.isEmpty() || id.length() > MAX_ID_LENGTH || id.equals(".") || id.equals("..")
        || id.chars().anyMatch(c -> c == '/' || c == '\\' || Character.isISOControl(c))) {
      throw new InvalidArgumentException("a replica id must be 1 to " + MAX_ID_LENGTH
          + " characters without '/', '\\' or control characters, and not '.' or '..': '" + id + "'");
    }
  }

  /** The object key of {@code partition}'s cursor. */
  String key(int partition) {
    return keyOf.apply(partition);
  }

  @Override
  public Optional<Stored> load(int partition) {
    try {
      return Optional.of(decode(store.get(key(partition))));
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
  }

  @Override
  public Version save(CursorCheckpoint checkpoint, Version expected) {
    Objects.requireNonNull(checkpoint, "checkpoint");
    Objects.requireNonNull(expected, "expected");
    CasDocument.Swap swap;
    try {
      swap = new CasDocument<>(store, key(checkpoint.partition()), "replica cursor", RAW, ONE_ATTEMPT)
          .swap(VersionToken.of(expected.value()), ConsumerCheckpointDocument.encode(checkpoint, clock.millis()));
    } catch (CasDocument.ExhaustedException e) {
      throw (IndeterminateStoreException) Objects.requireNonNull(e.getCause());
    }
    if (swap instanceof CasDocument.Swap.Swapped swapped) {
      return new Version(swapped.token().value());
    }
    @Nullable StoredObject current = ((CasDocument.Swap.Lost) swap).current();
    throw new CursorConflictException(checkpoint, expected, current == null ? null : decode(current));
  }

  private static Stored decode(StoredObject object) {
    try {
      return new Stored(CursorCheckpoint.parse(object.bytes()), new Version(object.token().value()));
    } catch (CheckpointInvalidException e) {
      throw new CorruptObjectException(object.key() + " is not a cursor checkpoint: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "DocumentCursorStore[" + store.describe() + "]";
  }
}
