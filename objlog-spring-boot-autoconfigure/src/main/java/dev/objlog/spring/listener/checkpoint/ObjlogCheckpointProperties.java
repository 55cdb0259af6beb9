package dev.objlog.spring.listener.checkpoint;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code objlog.checkpoint.*} properties: where listeners keep their checkpoints and consumer
 * group leases, and how the JDBC tables are created.
 *
 * <p>Thread-safety: a mutable binding target; Spring binds it on one thread during startup, after
 * which it is only read.
 */
@ConfigurationProperties("objlog.checkpoint")
public class ObjlogCheckpointProperties {

  /**
   * Where listeners keep checkpoints and group leases: jdbc (a database table, saved in the
   * listener's transaction), memory (this process only, lost on restart) or bucket (beside each
   * partition's catalog in the object store). When unset: jdbc if the application has a single
   * DataSource and spring-jdbc, otherwise bucket, or memory on the memory store.
   */
  private @Nullable StoreType store;

  /**
   * During a rolling deploy from the previous release: also hold the leases where that release
   * keeps them (member slots; with jdbc or memory also writer leases), so that instances of both
   * releases never both own a partition. While on, the group names the previous release reserved
   * (objlog-writer, objlog-writer-members, names ending in #members) are refused. Turn it off once
   * no instance of the previous release runs.
   */
  private boolean holdPreviousReleaseLeases;

  /** Settings of the jdbc checkpoint store. */
  private final Jdbc jdbc = new Jdbc();

  public boolean isHoldPreviousReleaseLeases() {
    return holdPreviousReleaseLeases;
  }

  public void setHoldPreviousReleaseLeases(boolean holdPreviousReleaseLeases) {
    this.holdPreviousReleaseLeases = holdPreviousReleaseLeases;
  }

  public @Nullable StoreType getStore() {
    return store;
  }

  public void setStore(@Nullable StoreType store) {
    this.store = store;
  }

  public Jdbc getJdbc() {
    return jdbc;
  }

  /** Kinds of checkpoint store. */
  public enum StoreType {
    /** Database tables through JdbcTemplate; saves join the caller's transaction. */
    JDBC,
    /** This process's memory: lost on restart, not shared between instances. */
    MEMORY,
    /** Objects beside each partition's catalog in the log's bucket, written with compare-and-swap. */
    BUCKET
  }

  /** When to create the checkpoint and lease tables. */
  public enum InitializeSchema {
    /** Only for an embedded database such as H2, HSQLDB or Derby. */
    EMBEDDED,
    /** Always (the scripts only create tables that do not exist yet). */
    ALWAYS,
    /** Never: the application's migrations create them. */
    NEVER
  }

  /** The jdbc checkpoint store. */
  public static class Jdbc {

    /**
     * When to create the checkpoint and lease tables at startup: embedded (only for an embedded
     * database such as H2), always, or never. The scripts create only tables that do not exist.
     */
    private InitializeSchema initializeSchema = InitializeSchema.EMBEDDED;

    /**
     * Prefix of the table names: tables <prefix>checkpoint and <prefix>lease. A letter, then up to
     * 39 letters, digits or underscores.
     */
    private String tablePrefix = "objlog_";

    /**
     * Location of the schema script; @@platform@@ is replaced by the database platform
     * (postgresql, mysql or h2), and "objlog_" in it by the table prefix.
     */
    private String schema = "classpath:dev/objlog/spring/listener/checkpoint/schema-@@platform@@.sql";

    /**
     * Database platform of the schema script (postgresql, mysql or h2), when it cannot be detected
     * from the connection. MariaDB uses mysql.
     */
    private @Nullable String platform;

    public InitializeSchema getInitializeSchema() {
      return initializeSchema;
    }

    public void setInitializeSchema(InitializeSchema initializeSchema) {
      this.initializeSchema = initializeSchema;
    }

    public String getTablePrefix() {
      return tablePrefix;
    }

    public void setTablePrefix(String tablePrefix) {
      this.tablePrefix = tablePrefix;
    }

    public String getSchema() {
      return schema;
    }

    public void setSchema(String schema) {
      this.schema = schema;
    }

    public @Nullable String getPlatform() {
      return platform;
    }

    public void setPlatform(@Nullable String platform) {
      this.platform = platform;
    }
  }
}
