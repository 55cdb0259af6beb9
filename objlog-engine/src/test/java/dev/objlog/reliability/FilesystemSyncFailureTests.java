package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoreException;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A directory fsync that fails (EIO) after a rename must not be acknowledged: the new entry may
 * not survive a power failure, so the write is reported as an error whose outcome is unknown
 * (issue #13). The store used to ignore every failure of a directory sync, meant only for
 * platforms that cannot open a directory. The store's own retries matter too: a retry finds the
 * object in place (already exists, or a conflict carrying its own bytes), which the caller takes
 * as its write, so that answer, too, must come only once the folder is synced.
 */
class FilesystemSyncFailureTests {
  @TempDir Path dir;

  @Test
  void aWriteWhoseDirectorySyncFailsIsAnErrorNotASuccess() throws Exception {
    Path disk = Files.createDirectories(dir.resolve("disk"));
    PowerCutFileSystem fs = new PowerCutFileSystem(disk);
    try (ObjectStore store = FilesystemObjectStore.builder(fs.disk().resolve("bucket")).sleeper(d -> {}).build()) {
      CreateResult first = store.putIfAbsent("folder/first", "1".getBytes(UTF_8));
      assertThat(first).isInstanceOf(CreateResult.Created.class);
      var token = ((CreateResult.Created) first).token();

      fs.failDirectorySyncs(true);
      assertThatThrownBy(() -> store.putIfAbsent("folder/second", "2".getBytes(UTF_8)))
          .as("create-only write whose folder sync failed").isInstanceOf(StoreException.class);
      assertThatThrownBy(() -> store.compareAndSwap("folder/first", token, "1b".getBytes(UTF_8)))
          .as("compare-and-swap whose folder sync failed").isInstanceOf(StoreException.class);

      fs.failDirectorySyncs(false);
      assertThat(store.compareAndSwap("folder/first", store.head("folder/first").orElseThrow().token(), "1c".getBytes(UTF_8)))
          .as("a swap once syncs work again").isInstanceOf(CasResult.Swapped.class);
    }
  }
}
