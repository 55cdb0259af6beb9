package dev.objlog.store;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.jspecify.annotations.Nullable;

/** The startup check behind {@link ObjectStore#verifyConditionalWrites(String)}. */
final class ConditionalWriteSelfTest {
  private ConditionalWriteSelfTest() {}

  static void run(ObjectStore store, String prefix) {
    String root = prefix.replaceAll("^/+|/+$", "");
    String key = (root.isEmpty() ? "" : root + "/") + "selftest/" + UUID.randomUUID();
    byte[] first = "objlog self-test 1".getBytes(StandardCharsets.UTF_8);
    byte[] second = "objlog self-test 2".getBytes(StandardCharsets.UTF_8);
    byte[] third = "objlog self-test 3".getBytes(StandardCharsets.UTF_8);
    RuntimeException failure = null;
    try {
      VersionToken created = requireCreated(store, store.putIfAbsent(key, first), key);
      if (store.putIfAbsent(key, second).created()) {
        throw refused(store, "a create-only write (If-None-Match: *) replaced an existing object");
      }
      CasResult swap = store.compareAndSwap(key, created, second);
      if (!(swap instanceof CasResult.Swapped swapped)) {
        throw new PermanentStoreException(
            "self-test on " + store.describe() + ": compare-and-swap with the current token of "
                + key + " was refused; check that the credentials may overwrite objects");
      }
      if (swapped.token().equals(created)) {
        throw refused(store, "the version token did not change when the object was replaced");
      }
      if (store.compareAndSwap(key, created, third).swapped()) {
        throw refused(store, "a compare-and-swap (If-Match) with a stale token replaced the object");
      }
      if (store.compareAndSwap(key, VersionToken.ABSENT, third).swapped()) {
        throw refused(store, "a create-only compare-and-swap replaced an existing object");
      }
      byte[] now = store.get(key).bytes();
      if (!java.util.Arrays.equals(now, second)) {
        throw refused(store, "a write whose condition failed still changed the object");
      }
    } catch (RuntimeException e) {
      failure = e;
      throw e;
    } finally {
      cleanUp(store, key, failure);
    }
  }

  /**
   * Deletes the scratch key. When the test already failed, a failed delete is attached to that
   * failure rather than replacing it: a principal refused the first write is usually refused the
   * delete too, and the first refusal is the one that says what to grant.
   */
  private static void cleanUp(ObjectStore store, String key, @Nullable RuntimeException failure) {
    try {
      store.delete(List.of(key));
    } catch (RuntimeException e) {
      if (failure == null) {
        throw e;
      }
      failure.addSuppressed(e);
    }
  }

  private static VersionToken requireCreated(ObjectStore store, CreateResult result, String key) {
    if (result instanceof CreateResult.Created created) {
      return created.token();
    }
    throw new PermanentStoreException(
        "self-test on " + store.describe() + ": a create-only write of the fresh key " + key
            + " was refused as if the key existed; check the store's conditional-write support");
  }

  private static ConditionalWritesNotHonouredException refused(ObjectStore store, String what) {
    return new ConditionalWritesNotHonouredException(
        "the object store " + store.describe() + " does not honour conditional writes: " + what
            + ". objlog needs atomic create-only and compare-and-swap writes to fence writers; use"
            + " a store that supports them (AWS S3, GCS, Azure Blob, MinIO, the filesystem store)"
            + " or a gateway that passes If-None-Match/If-Match through.");
  }
}
