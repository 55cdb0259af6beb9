package dev.objlog.spring.autoconfigure.store;

import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.store.ObjectStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Runs {@link ObjectStore#verifyConditionalWrites} on every {@code ObjectStore} bean once all
 * singletons exist and before any lifecycle bean (writers, listeners) starts, so that a store
 * that ignores write conditions stops startup instead of letting two writers both win.
 */
final class ObjlogStoreSelfTest implements SmartInitializingSingleton {
  private static final Log logger = LogFactory.getLog(ObjlogStoreSelfTest.class);

  private final ObjectProvider<ObjectStore> stores;
  private final String root;

  ObjlogStoreSelfTest(ObjectProvider<ObjectStore> stores, String prefix) {
    this.stores = stores;
    this.root = KeyPrefixes.resolve(prefix).root();
  }

  @Override
  public void afterSingletonsInstantiated() {
    stores.orderedStream().forEach(this::verify);
  }

  private void verify(ObjectStore store) {
    long start = System.nanoTime();
    store.verifyConditionalWrites(root);
    if (logger.isDebugEnabled()) {
      logger.debug("objlog store self-test passed on " + store.describe() + " under '" + root + "/selftest/' in "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
    }
  }
}
