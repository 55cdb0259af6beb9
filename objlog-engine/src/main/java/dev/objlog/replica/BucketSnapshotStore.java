package dev.objlog.replica;

import dev.objlog.InvalidArgumentException;
import dev.objlog.store.CreateResult;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import java.util.Arrays;
import java.util.Objects;

/**
 * Snapshot payloads as create-only objects of an {@link ObjectStore}. A create whose reply was
 * lost is settled by reading the object back: the same bytes are this write.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class BucketSnapshotStore implements SnapshotStore {
  private final ObjectStore store;

  BucketSnapshotStore(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public void write(String objectKey, byte[] payload) {
    Objects.requireNonNull(objectKey, "objectKey");
    Objects.requireNonNull(payload, "payload");
    CreateResult result;
    try {
      result = store.putIfAbsent(objectKey, payload);
    } catch (IndeterminateStoreException e) {
      if (storedEquals(objectKey, payload)) {
        return;
      }
      throw e;
    }
    if (!result.created() && !storedEquals(objectKey, payload)) {
      throw new InvalidArgumentException("a snapshot payload already exists at " + objectKey
          + "; snapshots are never overwritten, use a new key");
    }
  }

  private boolean storedEquals(String key, byte[] payload) {
    try {
      return Arrays.equals(store.get(key).bytes(), payload);
    } catch (ObjectNotFoundException e) {
      return false;
    }
  }

  @Override
  public byte[] read(String objectKey) {
    Objects.requireNonNull(objectKey, "objectKey");
    try {
      return store.get(objectKey).bytes();
    } catch (ObjectNotFoundException e) {
      throw new SnapshotMissingException("no snapshot payload at " + objectKey + " in " + store.describe()
          + ": the marker names an object that was deleted or written elsewhere; publish a new snapshot", e);
    }
  }

  @Override
  public String toString() {
    return "BucketSnapshotStore[" + store.describe() + "]";
  }
}
