package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.CheckpointSchemaInitializer;
import dev.objlog.spring.listener.checkpoint.JdbcCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointProperties;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import java.nio.file.Path;
import java.time.Clock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.springframework.jdbc.core.JdbcTemplate;

/** Leases and checkpoints in database tables of their own, shared by both instances. */
abstract class JdbcListenerGroupContract extends ListenerGroupContract {
  private @Nullable DataSource dataSource;
  private final String prefix = TestDatabases.uniqueTablePrefix();

  protected abstract DataSource openDataSource();

  @Override
  protected synchronized CheckpointRepository openRepository(Path storeRoot, Clock clock) {
    if (dataSource == null) {
      dataSource = openDataSource();
      ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
      settings.setTablePrefix(prefix);
      new CheckpointSchemaInitializer(dataSource, settings).initialize();
    }
    return new JdbcCheckpointRepository(new JdbcTemplate(dataSource), prefix, clock);
  }

  @AfterEach
  void dropTables() {
    if (dataSource != null) {
      JdbcTemplate jdbc = new JdbcTemplate(dataSource);
      jdbc.execute("drop table if exists " + prefix + "checkpoint");
      jdbc.execute("drop table if exists " + prefix + "lease");
    }
  }
}
