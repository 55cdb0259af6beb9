package dev.objlog.spring.listener.checkpoint;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.DatabaseMetaData;
import java.util.Locale;
import java.util.Objects;
import javax.sql.DataSource;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.jdbc.DatabaseDriver;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.datasource.init.DatabasePopulatorUtils;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * Creates the {@link JdbcCheckpointRepository} tables when {@code
 * objlog.checkpoint.jdbc.initialize-schema} asks for it: {@code embedded} (the default) only for an
 * embedded database, {@code always}, or {@code never}. The script is chosen by database platform
 * ({@code postgresql}, {@code mysql} for MySQL and MariaDB, {@code h2}), detected from the
 * connection unless {@code objlog.checkpoint.jdbc.platform} names it; it only creates tables that
 * do not exist, so running it on every start is safe.
 *
 * <p>Error contract: an {@link ObjlogConfigurationException} when the platform is unknown or the
 * script is missing; Spring's {@code ScriptException} when the database rejects the script.
 *
 * <p>Thread-safety: runs once, during startup.
 */
public final class CheckpointSchemaInitializer implements InitializingBean {
  private final DataSource dataSource;
  private final ObjlogCheckpointProperties.Jdbc settings;
  private final ResourceLoader resourceLoader;

  public CheckpointSchemaInitializer(DataSource dataSource, ObjlogCheckpointProperties.Jdbc settings) {
    this(dataSource, settings, new DefaultResourceLoader(CheckpointSchemaInitializer.class.getClassLoader()));
  }

  public CheckpointSchemaInitializer(
      DataSource dataSource, ObjlogCheckpointProperties.Jdbc settings, ResourceLoader resourceLoader) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.resourceLoader = Objects.requireNonNull(resourceLoader, "resourceLoader");
  }

  @Override
  public void afterPropertiesSet() {
    initializeIfConfigured();
  }

  /**
   * Runs the script if the mode asks for it.
   *
   * @return whether it ran
   */
  public boolean initializeIfConfigured() {
    boolean run = switch (settings.getInitializeSchema()) {
      case ALWAYS -> true;
      case NEVER -> false;
      case EMBEDDED -> EmbeddedDatabaseConnection.isEmbedded(dataSource);
    };
    if (run) {
      initialize();
    }
    return run;
  }

  /** Runs the schema script now, whatever the mode. */
  public void initialize() {
    String location = scriptLocation();
    String script = script();
    ResourceDatabasePopulator populator =
        new ResourceDatabasePopulator(new ByteArrayResource(script.getBytes(StandardCharsets.UTF_8), location));
    populator.setSqlScriptEncoding(StandardCharsets.UTF_8.name());
    DatabasePopulatorUtils.execute(populator, dataSource);
  }

  /**
   * The schema script this initializer runs: the platform's script with the configured table
   * prefix, as a person creating the tables by hand would run it.
   *
   * @throws ObjlogConfigurationException for a bad table prefix, an unknown platform or a missing
   *     script
   */
  public String script() {
    String prefix = settings.getTablePrefix();
    try {
      JdbcCheckpointRepository.checkTablePrefix(prefix);
    } catch (IllegalArgumentException e) {
      throw new ObjlogConfigurationException(
          "objlog.checkpoint.jdbc.table-prefix", e.getMessage() + ".", "Choose a table prefix such as objlog_.");
    }
    String script = read(resourceLoader.getResource(scriptLocation()));
    if (!prefix.equals(JdbcCheckpointRepository.DEFAULT_TABLE_PREFIX)) {
      script = script.replace(JdbcCheckpointRepository.DEFAULT_TABLE_PREFIX, prefix);
    }
    return script;
  }

  private String scriptLocation() {
    String platform = settings.getPlatform();
    if (platform == null || platform.isBlank()) {
      platform = detectPlatform(dataSource);
    }
    return settings.getSchema().replace("@@platform@@", platform.toLowerCase(Locale.ROOT));
  }

  /**
   * The schema platform of {@code dataSource}: {@code postgresql}, {@code mysql} (MySQL and
   * MariaDB) or {@code h2}.
   *
   * @throws ObjlogConfigurationException for any other database
   */
  public static String detectPlatform(DataSource dataSource) {
    DatabaseDriver driver;
    try {
      driver = JdbcUtils.extractDatabaseMetaData(dataSource, (DatabaseMetaData md) -> {
        DatabaseDriver byUrl = DatabaseDriver.fromJdbcUrl(md.getURL());
        return byUrl != DatabaseDriver.UNKNOWN ? byUrl : DatabaseDriver.fromProductName(md.getDatabaseProductName());
      });
    } catch (MetaDataAccessException e) {
      throw new ObjlogConfigurationException(
          "objlog.checkpoint.jdbc.platform",
          "The database of the checkpoint tables could not be detected: " + e.getMessage() + ".",
          "Set objlog.checkpoint.jdbc.platform to postgresql, mysql or h2.");
    }
    return switch (driver) {
      case POSTGRESQL -> "postgresql";
      case MYSQL, MARIADB -> "mysql";
      case H2 -> "h2";
      default -> throw new ObjlogConfigurationException(
          "objlog.checkpoint.jdbc.platform",
          "objlog ships checkpoint table scripts for PostgreSQL, MySQL/MariaDB and H2, not for " + driver + ".",
          "Create the tables yourself (see schema-postgresql.sql) and set "
              + "objlog.checkpoint.jdbc.initialize-schema=never, or set objlog.checkpoint.jdbc.platform.");
    };
  }

  private static String read(Resource resource) {
    if (!resource.exists()) {
      throw new ObjlogConfigurationException(
          "objlog.checkpoint.jdbc.schema",
          "The checkpoint schema script " + resource.getDescription() + " does not exist.",
          "Point objlog.checkpoint.jdbc.schema at an existing script or set objlog.checkpoint.jdbc.platform.");
    }
    try (InputStream in = resource.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource.getDescription(), e);
    }
  }
}
