package dev.objlog.spring.autoconfigure.store;

import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.store.AccessDeniedException;
import dev.objlog.store.BucketNotFoundException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.StoreException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The startup step that proves the bucket (or container) of every {@code ObjectStore} bean exists:
 * one listing of at most one key under the prefix. A missing bucket stops startup with an {@link
 * ObjlogConfigurationException} saying what to create, whether or not the conditional-write
 * self-test is on.
 *
 * <p>It runs once all singletons exist ({@link SmartInitializingSingleton}), before the
 * self-test and before any writer or listener starts, so a bean that creates the bucket while the
 * context is built (a test's) runs first. A refused permission to list ({@link
 * AccessDeniedException}) stops startup too, explained by {@link AccessDeniedFailureAnalyzer}:
 * every role needs it. Any other store failure (the store unreachable) is logged and left to the
 * self-test and to the first real request.
 *
 * <p>Thread-safety: runs once, on the thread that starts the context.
 */
final class ObjlogStoreBucketCheck implements SmartInitializingSingleton {
  private static final Log logger = LogFactory.getLog(ObjlogStoreBucketCheck.class);

  private final ObjectProvider<ObjectStore> stores;
  private final String root;

  ObjlogStoreBucketCheck(ObjectProvider<ObjectStore> stores, String prefix) {
    this.stores = stores;
    this.root = KeyPrefixes.resolve(prefix).root();
  }

  @Override
  public void afterSingletonsInstantiated() {
    stores.orderedStream().forEach(this::check);
  }

  private void check(ObjectStore store) {
    try {
      store.list(root + "/", 1);
    } catch (BucketNotFoundException e) {
      // By class name, so that no provider SDK class is loaded to tell.
      boolean container = store.getClass().getName().equals("dev.objlog.store.azure.AzureBlobObjectStore");
      String what = container ? "container" : "bucket";
      String property = container ? "objlog.store.container" : "objlog.store.bucket";
      throw new ObjlogConfigurationException(
          property,
          "the " + what + " '" + e.bucket() + "' does not exist (" + store.describe() + ").",
          "Create the " + what + " '" + e.bucket() + "' (objlog never creates " + what + "s), or set " + property
              + " to an existing one" + (container ? "" : " and check the endpoint and region") + ".");
    } catch (AccessDeniedException e) {
      // Every role lists the bucket: without the permission nothing works, so say which one now.
      throw e;
    } catch (StoreException e) {
      logger.warn("objlog could not check that the bucket of " + store.describe() + " exists (" + e.getMessage()
          + "); startup goes on, and the first request to the store will tell");
    }
  }
}
