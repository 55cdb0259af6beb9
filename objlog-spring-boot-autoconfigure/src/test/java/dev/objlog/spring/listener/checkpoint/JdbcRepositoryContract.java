package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The repository contract against one database, in tables of their own ({@link
 * TestDatabases#uniqueTablePrefix()}) created by {@link CheckpointSchemaInitializer} and dropped
 * afterwards, so runs sharing a database never see each other's rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JdbcRepositoryContract extends CheckpointRepositoryContractTests {
  protected @Nullable DataSource dataSource;
  protected String prefix = "";
  protected JdbcTemplate jdbc;

  protected abstract DataSource openDataSource();

  /** The schema platform {@link CheckpointSchemaInitializer#detectPlatform} must report. */
  protected abstract String expectedPlatform();

  @BeforeAll
  void createTables() {
    dataSource = openDataSource();
    jdbc = new JdbcTemplate(dataSource);
    prefix = TestDatabases.uniqueTablePrefix();
    ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
    settings.setTablePrefix(prefix);
    new CheckpointSchemaInitializer(dataSource, settings).initialize();
  }

  @AfterAll
  void dropTables() {
    if (dataSource != null) {
      jdbc.execute("drop table if exists " + prefix + "checkpoint");
      jdbc.execute("drop table if exists " + prefix + "lease");
    }
  }

  @Override
  protected CheckpointRepository create(Clock clock) {
    jdbc.update("delete from " + prefix + "checkpoint");
    jdbc.update("delete from " + prefix + "lease");
    return new JdbcCheckpointRepository(jdbc, prefix, clock);
  }

  @Test
  void thePlatformIsDetectedFromTheConnection() {
    assertThat(CheckpointSchemaInitializer.detectPlatform(dataSource)).isEqualTo(expectedPlatform());
  }

  @Test
  void theSchemaScriptCanRunAgain() {
    CheckpointRepository repository = create(clock);
    repository.save(CheckpointKey.of("l", "orders", 0), at("orders", 0, 1), CheckpointVersion.ABSENT);
    ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
    settings.setTablePrefix(prefix);

    new CheckpointSchemaInitializer(dataSource, settings).initialize();

    assertThat(repository.load("l", "orders", 0)).isPresent();
  }

  @Test
  void rowsHoldTheExactCheckpointJsonAndACountingVersion() {
    CheckpointRepository repository = create(clock);
    CheckpointKey key = CheckpointKey.of("billing", "orders", 7);
    CheckpointVersion v1 = repository.save(key, at("orders", 7, 4), CheckpointVersion.ABSENT);
    repository.save(key, at("orders", 7, 9), v1);

    assertThat(jdbc.queryForMap(
            "select checkpoint_json, version from " + prefix + "checkpoint where listener_id = 'billing'"))
        .containsEntry("checkpoint_json", "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":9}")
        .containsEntry("version", 2L);
    assertThat(v1.value()).isEqualTo("1");
  }
}
