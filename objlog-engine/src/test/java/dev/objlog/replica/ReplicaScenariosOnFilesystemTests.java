package dev.objlog.replica;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class ReplicaScenariosOnFilesystemTests extends ReplicaScenarioContract {
  @TempDir Path root;

  @Override
  protected ObjectStore store() {
    return FilesystemObjectStore.open(root.resolve("bucket"));
  }
}
