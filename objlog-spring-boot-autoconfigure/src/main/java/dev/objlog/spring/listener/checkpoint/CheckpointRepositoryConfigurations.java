package dev.objlog.spring.listener.checkpoint;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The checkpoint repository variants, imported in this order by {@link
 * ObjlogCheckpointAutoConfiguration}: the first whose conditions hold defines the bean.
 */
final class CheckpointRepositoryConfigurations {
  static final String STORE = "objlog.checkpoint.store";
  private static final Log logger = LogFactory.getLog(CheckpointRepositoryConfigurations.class);

  private CheckpointRepositoryConfigurations() {}

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"org.springframework.jdbc.core.JdbcTemplate", "org.springframework.boot.jdbc.DatabaseDriver"})
  @ConditionalOnSingleCandidate(DataSource.class)
  @ConditionalOnProperty(name = STORE, havingValue = "jdbc", matchIfMissing = true)
  static class Jdbc {

    @Bean
    @ConditionalOnMissingBean
    CheckpointSchemaInitializer objlogCheckpointSchemaInitializer(
        DataSource dataSource, ObjlogCheckpointProperties properties, ResourceLoader resourceLoader) {
      return new CheckpointSchemaInitializer(dataSource, properties.getJdbc(), resourceLoader);
    }

    /** A startup step of its own, after every singleton (and so every migration) is there. */
    @Bean
    CheckpointTablesCheck objlogCheckpointTablesCheck(DataSource dataSource, ObjlogCheckpointProperties properties,
        ObjectProvider<CheckpointSchemaInitializer> initializer, ResourceLoader resourceLoader,
        ObjectProvider<CheckpointRepository> repositories) {
      return new CheckpointTablesCheck(dataSource, properties.getJdbc(), initializer.getIfAvailable(
          () -> new CheckpointSchemaInitializer(dataSource, properties.getJdbc(), resourceLoader)), repositories);
    }

    @Bean
    @ConditionalOnMissingBean(CheckpointRepository.class)
    JdbcCheckpointRepository objlogCheckpointRepository(
        DataSource dataSource,
        ObjlogCheckpointProperties properties,
        ObjectProvider<CheckpointSchemaInitializer> initializer) {
      // The tables exist (when we create them) before anyone uses the repository.
      initializer.ifAvailable(i -> {});
      String prefix = properties.getJdbc().getTablePrefix();
      try {
        JdbcCheckpointRepository.checkTablePrefix(prefix);
      } catch (IllegalArgumentException e) {
        throw new ObjlogConfigurationException(
            "objlog.checkpoint.jdbc.table-prefix", e.getMessage() + ".", "Choose a table prefix such as objlog_.");
      }
      return new JdbcCheckpointRepository(new JdbcTemplate(dataSource), prefix, Clock.systemUTC());
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = STORE, havingValue = "bucket")
  @ConditionalOnMissingBean(CheckpointRepository.class)
  static class Bucket {

    @Bean
    BucketCheckpointRepository objlogCheckpointRepository(
        ObjectProvider<ObjectStore> stores, ObjlogProperties objlog) {
      return bucketRepository(stores, objlog);
    }
  }

  /**
   * {@code objlog.checkpoint.store} unset and no JDBC: the bucket, so that checkpoints outlive a
   * restart as the log does. Not on the memory store, which forgets the log itself on restart.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = STORE, havingValue = "bucket", matchIfMissing = true)
  @ConditionalOnBean(ObjectStore.class)
  @ConditionalOnMissingBean({CheckpointRepository.class, MemoryObjectStore.class})
  static class BucketByDefault {

    @Bean
    BucketCheckpointRepository objlogCheckpointRepository(
        ObjectProvider<ObjectStore> stores, ObjlogProperties objlog) {
      return bucketRepository(stores, objlog);
    }
  }

  private static BucketCheckpointRepository bucketRepository(ObjectProvider<ObjectStore> stores, ObjlogProperties objlog) {
    ObjectStore store = stores.getIfUnique();
    if (store == null) {
      throw new ObjlogConfigurationException(
          STORE,
          "objlog.checkpoint.store=bucket keeps checkpoints in the log's object store, but there is no single ObjectStore bean.",
          "Configure objlog.store.* (or define one ObjectStore bean), or choose another checkpoint store.");
    }
    return new BucketCheckpointRepository(store, CatalogLocator.of(objlog.getStore().getPrefix(), objlog::streamId));
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = STORE, havingValue = "memory", matchIfMissing = true)
  @ConditionalOnMissingBean(CheckpointRepository.class)
  static class Memory {

    @Bean
    InMemoryCheckpointRepository objlogCheckpointRepository(ObjectProvider<ObjectStore> stores) {
      ObjectStore store = stores.getIfUnique();
      if (!(store instanceof MemoryObjectStore)) {
        // Chosen by name, or no single store: say plainly what a restart will do.
        logger.warn("objlog listener checkpoints and group leases are kept in memory (objlog.checkpoint.store=memory):"
            + " they are lost on restart, so listeners start again from objlog.listener.start-position, and they"
            + " are not shared with other instances" + (store == null ? "" : " of " + store.describe())
            + ". Choose objlog.checkpoint.store=bucket or jdbc to keep them.");
      }
      return new InMemoryCheckpointRepository();
    }
  }

  /** {@code objlog.checkpoint.store=jdbc}, but the JDBC variant did not match. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnProperty(name = STORE, havingValue = "jdbc")
  @ConditionalOnMissingBean(CheckpointRepository.class)
  static class JdbcUnavailable {

    @Bean
    CheckpointRepository objlogCheckpointRepository() {
      throw new ObjlogConfigurationException(
          STORE,
          "objlog.checkpoint.store=jdbc needs spring-jdbc, spring-boot-jdbc and a single DataSource bean.",
          "Add spring-boot-starter-jdbc and configure spring.datasource.*, or choose objlog.checkpoint.store=memory or bucket.");
    }
  }
}
