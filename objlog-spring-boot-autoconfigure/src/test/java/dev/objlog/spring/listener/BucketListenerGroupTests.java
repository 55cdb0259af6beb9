package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.BucketCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CatalogLocator;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;

/**
 * Leases and checkpoints in the log's own bucket ({@code consumers/workers/lease.json}): each
 * instance opens its own client of the filesystem store the log lives in, as two processes would.
 */
class BucketListenerGroupTests extends ListenerGroupContract {
  private final List<FilesystemObjectStore> stores = new CopyOnWriteArrayList<>();

  @Override
  protected CheckpointRepository openRepository(Path storeRoot, Clock clock) {
    FilesystemObjectStore store = FilesystemObjectStore.open(storeRoot);
    stores.add(store);
    return new BucketCheckpointRepository(store, CatalogLocator.of("objlog", name -> name), clock);
  }

  @AfterEach
  void closeStores() {
    stores.forEach(FilesystemObjectStore::close);
  }
}
