package dev.objlog.spring.autoconfigure.store;

import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.store.ObjectStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of objlog's {@link ObjectStore}: one bean built from {@code objlog.store.*}
 * unless the application defines its own, and two startup steps on every store bean: {@link
 * ObjlogStoreBucketCheck} (the bucket exists; {@code objlog.store.verify-bucket}) and then a self-test proving that the store
 * honours conditional writes ({@code objlog.store.verify-conditional-writes}).
 */
@AutoConfiguration
@EnableConfigurationProperties(ObjlogProperties.class)
@Import({
  ObjectStoreConfigurations.Filesystem.class,
  ObjectStoreConfigurations.Memory.class,
  ObjectStoreConfigurations.S3.class,
  ObjectStoreConfigurations.Gcs.class,
  ObjectStoreConfigurations.Azure.class,
  ObjectStoreConfigurations.MissingProvider.class
})
public final class ObjlogStoreAutoConfiguration {

  /** Declared before the self-test, so that a missing bucket is reported as such first. */
  @Bean
  @ConditionalOnBooleanProperty(name = "objlog.store.verify-bucket", matchIfMissing = true)
  ObjlogStoreBucketCheck objlogStoreBucketCheck(ObjectProvider<ObjectStore> stores, ObjlogProperties properties) {
    return new ObjlogStoreBucketCheck(stores, properties.getStore().getPrefix());
  }

  @Bean
  @ConditionalOnBooleanProperty(name = "objlog.store.verify-conditional-writes", matchIfMissing = true)
  ObjlogStoreSelfTest objlogStoreSelfTest(ObjectProvider<ObjectStore> stores, ObjlogProperties properties) {
    return new ObjlogStoreSelfTest(stores, properties.getStore().getPrefix());
  }
}
