package dev.objlog.spring.listener.checkpoint;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javax.sql.DataSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The startup step that proves the checkpoint and lease tables exist on a database objlog does not
 * create them on (not embedded, {@code objlog.checkpoint.jdbc.initialize-schema} other than {@code
 * always}): a missing table stops startup with the DDL to run in the message, instead of the first
 * checkpoint failing after records were handled.
 *
 * <p>It runs once all singletons exist, so migrations run by a bean (Flyway, Liquibase, {@code
 * spring.sql.init}) have created the tables by then. Only "the table does not exist" is fatal:
 * another failure (the database unreachable) is logged and left to the first use.
 *
 * <p>Thread-safety: runs once, on the thread that starts the context.
 */
final class CheckpointTablesCheck implements SmartInitializingSingleton {
  private static final Log logger = LogFactory.getLog(CheckpointTablesCheck.class);

  private final DataSource dataSource;
  private final ObjlogCheckpointProperties.Jdbc settings;
  private final CheckpointSchemaInitializer schema;
  private final ObjectProvider<CheckpointRepository> repositories;

  /**
   * @param repositories the context's repository: only a {@link JdbcCheckpointRepository} is
   *     checked, on its own tables
   */
  CheckpointTablesCheck(DataSource dataSource, ObjlogCheckpointProperties.Jdbc settings,
      CheckpointSchemaInitializer schema, ObjectProvider<CheckpointRepository> repositories) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.repositories = Objects.requireNonNull(repositories, "repositories");
  }

  @Override
  public void afterSingletonsInstantiated() {
    if (settings.getInitializeSchema() == ObjlogCheckpointProperties.InitializeSchema.ALWAYS
        || EmbeddedDatabaseConnection.isEmbedded(dataSource)) {
      return; // created at startup (embedded: by default), or an embedded database the application fills itself
    }
    if (!(repositories.getIfUnique() instanceof JdbcCheckpointRepository repository)) {
      return; // the application keeps checkpoints elsewhere
    }
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    List<String> missing = new ArrayList<>();
    for (String table : List.of(repository.checkpointTable(), repository.leaseTable())) {
      try {
        jdbc.queryForList("select 1 from " + table + " where 1 = 0");
      } catch (BadSqlGrammarException e) {
        missing.add(table);
      } catch (DataAccessException e) {
        logger.warn("objlog could not check that the checkpoint table " + table + " exists (" + e.getMessage()
            + "); startup goes on, and the first checkpoint will tell");
        return;
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    String ddl;
    try {
      ddl = schema.script().strip();
    } catch (ObjlogConfigurationException e) {
      ddl = "(no script for this database: adapt " + settings.getSchema().replace("@@platform@@", "postgresql") + ")";
    }
    throw new ObjlogConfigurationException(
        "objlog.checkpoint.jdbc.initialize-schema",
        "the listener checkpoint table" + (missing.size() == 1 ? " " : "s ") + String.join(" and ", missing)
            + (missing.size() == 1 ? " does" : " do") + " not exist, and objlog creates them only on an embedded"
            + " database unless objlog.checkpoint.jdbc.initialize-schema=always.",
        "Create them with your migrations (Flyway, Liquibase) or by hand, or set"
            + " objlog.checkpoint.jdbc.initialize-schema=always. The DDL:\n\n" + ddl + "\n");
  }
}
