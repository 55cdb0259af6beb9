package dev.objlog.spring.listener.checkpoint;

import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Auto-configuration of the listeners' {@link CheckpointRepository} (whose {@code leaseStore()}
 * becomes the {@code LeaseStore} bean, see {@code ObjlogLeaseAutoConfiguration}), unless the
 * application defines its own:
 *
 * <ul>
 *   <li>{@code objlog.checkpoint.store} unset: a {@link JdbcCheckpointRepository} when spring-jdbc
 *       and spring-boot-jdbc are present and there is a single {@code DataSource}; otherwise a
 *       {@link BucketCheckpointRepository} on the log's store, unless that is the memory store
 *       (then an {@link InMemoryCheckpointRepository});
 *   <li>{@code jdbc}, {@code memory} or {@code bucket} choose explicitly; {@code jdbc} without a
 *       DataSource and {@code bucket} without an {@code ObjectStore} fail startup; {@code memory}
 *       on any store but the memory store logs a WARN (a restart forgets every checkpoint).
 * </ul>
 *
 * <p>With JDBC, {@link CheckpointSchemaInitializer} creates the tables as {@code
 * objlog.checkpoint.jdbc.initialize-schema} says (by default only for an embedded database).
 */
@AutoConfiguration(
    after = ObjlogStoreAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
      "org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration"
    })
@EnableConfigurationProperties({ObjlogCheckpointProperties.class, ObjlogProperties.class})
@Import({
  CheckpointRepositoryConfigurations.Jdbc.class,
  CheckpointRepositoryConfigurations.Bucket.class,
  CheckpointRepositoryConfigurations.BucketByDefault.class,
  CheckpointRepositoryConfigurations.Memory.class,
  CheckpointRepositoryConfigurations.JdbcUnavailable.class
})
public final class ObjlogCheckpointAutoConfiguration {}
