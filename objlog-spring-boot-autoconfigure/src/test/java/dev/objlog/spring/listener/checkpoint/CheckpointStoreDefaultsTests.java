package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import java.nio.file.Path;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Checkpoints never go to memory silently: without a DataSource a persistent store keeps them in
 * the bucket (so a restart resumes), memory is chosen only by name (with a WARN) or on the memory
 * store; and JDBC tables missing on a database objlog does not create them on stop startup with the
 * DDL in the message (PostgreSQL and MariaDB through the environment's URLs; H2 is the embedded case).
 */
@ExtendWith(OutputCaptureExtension.class)
class CheckpointStoreDefaultsTests {
  private static final String MEMORY_WARNING = "objlog listener checkpoints and group leases are kept in memory";

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class));

  @TempDir Path root;

  @Test
  void withoutADataSourceAPersistentStoreKeepsCheckpointsInTheBucketAcrossARestart(CapturedOutput output) {
    ApplicationContextRunner onDisk = runner.withPropertyValues(
        "objlog.store.filesystem.root=" + root, "objlog.streams.orders.partitions=2");
    CheckpointKey key = CheckpointKey.of("billing", "orders", 1);
    onDisk.run(context -> {
      assertThat(context).hasNotFailed();
      CheckpointRepository repository = context.getBean(CheckpointRepository.class);
      assertThat(repository).isInstanceOf(BucketCheckpointRepository.class);
      assertThat(context.getBean(LeaseStoreProvider.class)).isSameAs(repository);
      repository.save(key, CursorCheckpoint.of("orders", 1, 42), CheckpointVersion.ABSENT);
    });
    onDisk.run(context -> {
      assertThat(context.getBean(CheckpointRepository.class).load(key).orElseThrow().checkpoint().nextLsn())
          .as("the checkpoint after a restart").isEqualTo(42);
    });
    assertThat(output).doesNotContain(MEMORY_WARNING);
  }

  @Test
  void memoryByNameOnAPersistentStoreWarnsThatARestartForgetsCheckpoints(CapturedOutput output) {
    runner.withPropertyValues("objlog.store.filesystem.root=" + root, "objlog.checkpoint.store=memory").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(InMemoryCheckpointRepository.class);
    });
    assertThat(output).contains(MEMORY_WARNING, "they are lost on restart", "objlog.checkpoint.store=bucket or jdbc");
  }

  @Test
  void theMemoryStoreKeepsCheckpointsInMemoryWithoutAWarning(CapturedOutput output) {
    runner.withPropertyValues("objlog.store.type=memory").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(InMemoryCheckpointRepository.class);
    });
    assertThat(output).doesNotContain(MEMORY_WARNING);
  }

  @Test
  void anEmbeddedDatabaseGetsItsTablesAndIsNotChecked() {
    runner.withPropertyValues("objlog.store.type=memory")
        .withBean(DataSource.class, TestDatabases::h2)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(CheckpointTablesCheck.class);
          assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(JdbcCheckpointRepository.class);
          new JdbcTemplate(context.getBean(DataSource.class)).queryForList("select 1 from objlog_checkpoint");
        });
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"postgresql", "mariadb"})
  void missingTablesOnAServerDatabaseFailStartupWithTheDdl(String database) {
    DataSource dataSource = database(database).get();
    String prefix = TestDatabases.uniqueTablePrefix();
    runner.withPropertyValues("objlog.store.type=memory", "objlog.checkpoint.jdbc.table-prefix=" + prefix)
        .withBean(DataSource.class, () -> dataSource)
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(context.getStartupFailure()).isInstanceOf(ObjlogConfigurationException.class);
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: "
              + "objlog.checkpoint.jdbc.initialize-schema: the listener checkpoint tables " + prefix + "checkpoint and "
              + prefix + "lease do not exist");
          assertThat(analysis.getAction())
              .contains("objlog.checkpoint.jdbc.initialize-schema=always")
              .contains("create table if not exists " + prefix + "checkpoint (")
              .contains("create table if not exists " + prefix + "lease (");
        });
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"postgresql", "mariadb"})
  void tablesCreatedByMigrationsOrByAlwaysPassTheCheck(String database) {
    DataSource dataSource = database(database).get();
    String prefix = TestDatabases.uniqueTablePrefix();
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    try {
      runner.withPropertyValues("objlog.store.type=memory", "objlog.checkpoint.jdbc.table-prefix=" + prefix,
              "objlog.checkpoint.jdbc.initialize-schema=always")
          .withBean(DataSource.class, () -> dataSource)
          .run(context -> assertThat(context).hasNotFailed());
      // The tables now exist, as after the application's own migrations: the default mode starts.
      runner.withPropertyValues("objlog.store.type=memory", "objlog.checkpoint.jdbc.table-prefix=" + prefix)
          .withBean(DataSource.class, () -> dataSource)
          .run(context -> assertThat(context).hasNotFailed());
      jdbc.execute("drop table " + prefix + "lease");
      runner.withPropertyValues("objlog.store.type=memory", "objlog.checkpoint.jdbc.table-prefix=" + prefix)
          .withBean(DataSource.class, () -> dataSource)
          .run(context -> assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
              .contains("the listener checkpoint table " + prefix + "lease does not exist"));
    } finally {
      jdbc.execute("drop table if exists " + prefix + "checkpoint");
      jdbc.execute("drop table if exists " + prefix + "lease");
    }
  }

  private static Supplier<DataSource> database(String name) {
    return switch (name) {
      case "postgresql" -> TestDatabases::postgres;
      case "mariadb" -> TestDatabases::mariadb;
      default -> throw new IllegalArgumentException(name);
    };
  }
}
