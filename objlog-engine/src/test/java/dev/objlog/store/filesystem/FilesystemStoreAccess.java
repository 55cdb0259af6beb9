package dev.objlog.store.filesystem;

import java.nio.file.Path;
import java.util.function.BiConsumer;

/**
 * Test-only access to the filesystem store's package-private seam for suites in other packages
 * (reliability): a store whose every lookup of a key's file first calls {@code beforeAccess} with
 * (operation, key), so a test can swap a symbolic link in at exactly that moment.
 */
public final class FilesystemStoreAccess {
  private FilesystemStoreAccess() {}

  public static FilesystemObjectStore openWithAccessHook(Path root, BiConsumer<String, String> beforeAccess) {
    return FilesystemObjectStore.builder(root).beforeAccess(beforeAccess).build();
  }
}
