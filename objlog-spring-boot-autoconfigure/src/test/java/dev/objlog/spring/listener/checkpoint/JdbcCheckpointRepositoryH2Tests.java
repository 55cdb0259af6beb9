package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The contract on H2, and the schema initializer's modes (H2 counts as embedded). */
class JdbcCheckpointRepositoryH2Tests extends JdbcRepositoryContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.h2();
  }

  @Override
  protected String expectedPlatform() {
    return "h2";
  }

  @Test
  void theInitializerFollowsItsMode() {
    DataSource h2 = TestDatabases.h2();
    ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
    settings.setInitializeSchema(ObjlogCheckpointProperties.InitializeSchema.NEVER);
    assertThat(new CheckpointSchemaInitializer(h2, settings).initializeIfConfigured()).isFalse();
    assertThat(tables(h2)).doesNotContain("OBJLOG_CHECKPOINT");

    settings.setInitializeSchema(ObjlogCheckpointProperties.InitializeSchema.EMBEDDED);
    assertThat(new CheckpointSchemaInitializer(h2, settings).initializeIfConfigured()).isTrue();
    assertThat(tables(h2)).contains("OBJLOG_CHECKPOINT", "OBJLOG_LEASE");
  }

  @Test
  void anExplicitPlatformWinsAndAnUnknownOneFailsStartup() {
    DataSource h2 = TestDatabases.h2();
    ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
    settings.setPlatform("oracle");
    assertThatThrownBy(() -> new CheckpointSchemaInitializer(h2, settings).initialize())
        .isInstanceOfSatisfying(ObjlogConfigurationException.class,
            e -> assertThat(e.getProperty()).isEqualTo("objlog.checkpoint.jdbc.schema"));

    settings.setPlatform("H2");
    new CheckpointSchemaInitializer(h2, settings).initialize();
    assertThat(tables(h2)).contains("OBJLOG_CHECKPOINT");
  }

  @Test
  void aBadTablePrefixFailsStartupNamingTheProperty() {
    ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
    settings.setTablePrefix("x; drop table y");
    assertThatThrownBy(() -> new CheckpointSchemaInitializer(TestDatabases.h2(), settings).initialize())
        .isInstanceOfSatisfying(ObjlogConfigurationException.class,
            e -> assertThat(e.getProperty()).isEqualTo("objlog.checkpoint.jdbc.table-prefix"));
  }

  private static java.util.List<String> tables(DataSource dataSource) {
    return new JdbcTemplate(dataSource).queryForList(
        "select table_name from information_schema.tables where table_schema = 'PUBLIC'", String.class);
  }
}
