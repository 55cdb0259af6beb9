package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import dev.objlog.store.ObjectStore;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Which checkpoint repository the auto-configuration defines, and its schema initialisation. */
class ObjlogCheckpointAutoConfigurationTests {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(
          ObjlogStoreAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class))
      .withPropertyValues("objlog.store.type=memory");

  private final ApplicationContextRunner withH2 = runner
      .withConfiguration(AutoConfigurations.of(
          DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class))
      .withPropertyValues("spring.datasource.generate-unique-name=true");

  @Test
  void withoutADataSourceCheckpointsStayInMemory() {
    runner.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(CheckpointRepository.class);
      assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(InMemoryCheckpointRepository.class);
      assertThat(context.getBean(LeaseStoreProvider.class)).isSameAs(context.getBean(CheckpointRepository.class));
    });
  }

  @Test
  void withADataSourceCheckpointsGoToTheDatabaseWhoseEmbeddedTablesAreCreated() {
    withH2.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(JdbcCheckpointRepository.class);
      assertThat(context).hasSingleBean(CheckpointSchemaInitializer.class);
      JdbcCheckpointRepository repository = context.getBean(JdbcCheckpointRepository.class);
      assertThat(repository.checkpointTable()).isEqualTo("objlog_checkpoint");

      // The repository works, and joins the application's transaction manager.
      TransactionTemplate tx = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
      CheckpointKey key = CheckpointKey.of("l", "orders", 0);
      try {
        tx.executeWithoutResult(status -> {
          repository.save(key, CursorCheckpoint.of("orders", 0, 1), CheckpointVersion.ABSENT);
          status.setRollbackOnly();
        });
      } finally {
        assertThat(repository.load(key)).isEmpty();
      }
      repository.save(key, CursorCheckpoint.of("orders", 0, 1), CheckpointVersion.ABSENT);
      assertThat(repository.load(key)).isPresent();
    });
  }

  @Test
  void theTablePrefixAndInitializationModeAreConfigurable() {
    withH2.withPropertyValues("objlog.checkpoint.jdbc.table-prefix=app_").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(tables(context.getBean(DataSource.class))).contains("APP_CHECKPOINT", "APP_LEASE");
      assertThat(context.getBean(JdbcCheckpointRepository.class).leaseTable()).isEqualTo("app_lease");
    });
    withH2.withPropertyValues("objlog.checkpoint.jdbc.initialize-schema=never").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(JdbcCheckpointRepository.class);
      assertThat(tables(context.getBean(DataSource.class))).doesNotContain("OBJLOG_CHECKPOINT");
    });
  }

  @Test
  void aBadTablePrefixFailsStartupNamingTheProperty() {
    withH2.withPropertyValues("objlog.checkpoint.jdbc.table-prefix=1x").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOfSatisfying(ObjlogConfigurationException.class,
              e -> assertThat(e.getProperty()).isEqualTo("objlog.checkpoint.jdbc.table-prefix"));
    });
  }

  @Test
  void memoryCanBeChosenDespiteADataSource() {
    withH2.withPropertyValues("objlog.checkpoint.store=memory").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(InMemoryCheckpointRepository.class);
      assertThat(context).doesNotHaveBean(CheckpointSchemaInitializer.class);
    });
  }

  @Test
  void withoutSpringJdbcADataSourceIsIgnored() {
    withH2.withClassLoader(new FilteredClassLoader(JdbcTemplate.class)).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(InMemoryCheckpointRepository.class);
    });
  }

  @Test
  void jdbcWithoutADataSourceFailsStartupNamingTheProperty() {
    runner.withPropertyValues("objlog.checkpoint.store=jdbc").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).rootCause()
          .isInstanceOfSatisfying(ObjlogConfigurationException.class,
              e -> assertThat(e.getProperty()).isEqualTo("objlog.checkpoint.store"));
    });
  }

  @Test
  void bucketKeepsCheckpointsBesideTheCatalogOfTheConfiguredStream() {
    runner.withPropertyValues(
            "objlog.checkpoint.store=bucket",
            "objlog.store.prefix=app",
            "objlog.streams.orders.stream-id=shop/orders")
        .run(context -> {
          assertThat(context).hasNotFailed();
          BucketCheckpointRepository repository = context.getBean(BucketCheckpointRepository.class);
          CheckpointKey key = CheckpointKey.of("billing", "orders", 2);
          repository.save(key, CursorCheckpoint.of("shop/orders", 2, 9), CheckpointVersion.ABSENT);
          assertThat(repository.checkpointObjectKey(key))
              .startsWith("app/catalog/")
              .endsWith("/p00000002/consumers/billing/checkpoint.json");
          assertThat(context.getBean(ObjectStore.class).head(repository.checkpointObjectKey(key))).isPresent();
          assertThat(repository.load(key).orElseThrow().checkpoint().nextLsn()).isEqualTo(9);
        });
  }

  @Test
  void theApplicationsOwnRepositoryWins() {
    withH2.withUserConfiguration(OwnRepository.class).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(CheckpointRepository.class);
      assertThat(context.getBean(CheckpointRepository.class)).isSameAs(context.getBean("mine"));
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnRepository {
    @Bean
    InMemoryCheckpointRepository mine() {
      return new InMemoryCheckpointRepository();
    }
  }

  private static List<String> tables(DataSource dataSource) {
    return new JdbcTemplate(dataSource).queryForList(
        "select table_name from information_schema.tables where table_schema = 'PUBLIC'", String.class);
  }
}
