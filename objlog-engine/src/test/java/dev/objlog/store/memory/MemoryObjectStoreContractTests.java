package dev.objlog.store.memory;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;

class MemoryObjectStoreContractTests extends ObjectStoreContract {
  @Override
  protected ObjectStore createStore() {
    return new MemoryObjectStore();
  }
}
