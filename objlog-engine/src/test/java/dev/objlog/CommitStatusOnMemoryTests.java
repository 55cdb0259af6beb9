package dev.objlog;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;

class CommitStatusOnMemoryTests extends CommitStatusContract {
  private final MemoryObjectStore store = new MemoryObjectStore();

  @Override
  protected ObjectStore store() {
    return store;
  }
}
