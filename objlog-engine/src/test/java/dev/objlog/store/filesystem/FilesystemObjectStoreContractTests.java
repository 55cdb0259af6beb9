package dev.objlog.store.filesystem;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.PathStyleObjectStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contract on one temporary root shared by the class (each case has its own prefix).
 * Runs the path-style variant: the filesystem store refuses an object and a folder on one path.
 */
class FilesystemObjectStoreContractTests extends PathStyleObjectStoreContract {

  @TempDir static Path root;

  @Override
  protected ObjectStore createStore() {
    return FilesystemObjectStore.open(root);
  }
}
