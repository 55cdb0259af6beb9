package dev.objlog.store.fault;

import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectStoreContract;
import dev.objlog.store.memory.MemoryObjectStore;

/** With no faults configured the decorator is its delegate, request for request. */
class FaultInjectingObjectStoreContractTests extends ObjectStoreContract {
  @Override
  protected ObjectStore createStore() {
    return FaultInjectingObjectStore.builder(new MemoryObjectStore()).seed(99).build();
  }
}
