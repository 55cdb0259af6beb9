package dev.objlog.spring.listener.checkpoint;

import dev.objlog.read.CheckpointInvalidException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.coordination.JdbcLeaseStore;
import dev.objlog.spring.coordination.LeaseStoreProvider;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.Calendar;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TimeZone;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Checkpoints and leases in two database tables (leases through its {@link JdbcLeaseStore}), {@code <prefix>checkpoint} and {@code
 * <prefix>lease} (prefix {@value #DEFAULT_TABLE_PREFIX} unless configured), through a {@link
 * JdbcOperations} such as Spring's {@link JdbcTemplate}. The schema scripts for PostgreSQL,
 * MySQL/MariaDB and H2 are {@code dev/objlog/spring/listener/checkpoint/schema-<platform>.sql} on
 * the classpath; {@link CheckpointSchemaInitializer} can run them.
 *
 * <p><b>Effectively-once.</b> A {@code JdbcTemplate} takes its connection through Spring's
 * {@code DataSourceUtils}, so inside a Spring-managed transaction on the same {@code DataSource} a
 * {@link #save} joins that transaction: when a transactional listener writes its own rows and
 * saves the checkpoint in one transaction, both commit or both roll back. Outside a transaction
 * each call commits on its own.
 *
 * <p>Versions are a counter in the {@code version} column ("1", "2", ...); a save updates the row
 * only {@code where version = expected}, so of two instances saving from the same version exactly
 * one succeeds. Times come from the repository's {@link Clock} and are stored in UTC to the
 * millisecond.
 *
 * <p>Thread-safety: safe for concurrent use, within and across processes.
 */
public final class JdbcCheckpointRepository implements CheckpointRepository, LeaseStoreProvider {
  /** The table prefix unless configured otherwise: tables {@code objlog_checkpoint} and {@code objlog_lease}. */
  public static final String DEFAULT_TABLE_PREFIX = "objlog_";

  private static final Pattern TABLE_PREFIX = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,39}");

  private final JdbcOperations jdbc;
  private final Clock clock;
  private final String checkpointTable;
  private final String leaseTable;
  private final JdbcLeaseStore leases;

  /** A repository on {@code dataSource} with the default table prefix and the system clock. */
  public JdbcCheckpointRepository(DataSource dataSource) {
    this(new JdbcTemplate(Objects.requireNonNull(dataSource, "dataSource")), DEFAULT_TABLE_PREFIX, Clock.systemUTC());
  }

  /**
   * A repository.
   *
   * @param jdbc the JDBC access; a {@link JdbcTemplate} joins Spring transactions on its DataSource
   * @param tablePrefix prefix of both table names: a letter, then up to 39 letters, digits or '_'
   * @param clock the source of save times and lease expiries
   */
  public JdbcCheckpointRepository(JdbcOperations jdbc, String tablePrefix, Clock clock) {
    this.jdbc = Objects.requireNonNull(jdbc, "jdbc");
    this.clock = Objects.requireNonNull(clock, "clock");
    checkTablePrefix(tablePrefix);
    this.checkpointTable = tablePrefix + "checkpoint";
    this.leaseTable = tablePrefix + "lease";
    this.leases = new JdbcLeaseStore(jdbc, tablePrefix, clock);
  }

  /**
   * Checks a table prefix: a letter, then up to 39 letters, digits or underscores.
   *
   * @throws IllegalArgumentException when it is not one
   */
  public static String checkTablePrefix(String tablePrefix) {
    Objects.requireNonNull(tablePrefix, "tablePrefix");
    if (!TABLE_PREFIX.matcher(tablePrefix).matches()) {
      throw new IllegalArgumentException(
          "table prefix must be a letter followed by up to 39 letters, digits or '_': '" + tablePrefix + "'");
    }
    return tablePrefix;
  }

  /** The checkpoint table's name. */
  public String checkpointTable() {
    return checkpointTable;
  }

  /** The lease table's name. */
  public String leaseTable() {
    return leaseTable;
  }

  /** The leases in this repository's lease table. */
  @Override
  public JdbcLeaseStore leaseStore() {
    return leases;
  }

  // ---- checkpoints ----

  @Override
  public Optional<StoredCheckpoint> load(CheckpointKey key) {
    Objects.requireNonNull(key, "key");
    List<StoredCheckpoint> rows = jdbc.query(
        "select checkpoint_json, version, updated_at from " + checkpointTable
            + " where listener_id = ? and stream_name = ? and partition_id = ?",
        ps -> bindKey(ps, 1, key),
        (rs, n) -> checkpointRow(key, rs));
    return rows.stream().findFirst();
  }

  @Override
  public CheckpointVersion save(CheckpointKey key, CursorCheckpoint checkpoint, CheckpointVersion expectedVersion) {
    Checks.checkSave(key, checkpoint, expectedVersion);
    long expected = Checks.counterVersion(expectedVersion);
    String json = checkpoint.toJson();
    Timestamp now = new Timestamp(clock.millis());
    if (expected == 0) {
      try {
        jdbc.update(
            "insert into " + checkpointTable
                + " (listener_id, stream_name, partition_id, checkpoint_json, version, updated_at)"
                + " values (?, ?, ?, ?, 1, ?)",
            ps -> {
              int i = bindKey(ps, 1, key);
              ps.setString(i++, json);
              ps.setTimestamp(i, now, utc());
            });
      } catch (DuplicateKeyException e) {
        // Another instance created it first. On PostgreSQL the transaction is unusable now, so
        // the conflict does not read the current row.
        throw new CheckpointConflictException(key, expectedVersion, null);
      }
      return CheckpointVersion.of("1");
    }
    int updated = jdbc.update(
        "update " + checkpointTable + " set checkpoint_json = ?, version = ?, updated_at = ?"
            + " where listener_id = ? and stream_name = ? and partition_id = ? and version = ?",
        ps -> {
          ps.setString(1, json);
          ps.setLong(2, expected + 1);
          ps.setTimestamp(3, now, utc());
          int i = bindKey(ps, 4, key);
          ps.setLong(i, expected);
        });
    if (updated != 1) {
      throw new CheckpointConflictException(key, expectedVersion, load(key).orElse(null));
    }
    return CheckpointVersion.of(Long.toString(expected + 1));
  }

  private static StoredCheckpoint checkpointRow(CheckpointKey key, ResultSet rs) throws SQLException {
    String json = rs.getString(1);
    CursorCheckpoint checkpoint;
    try {
      checkpoint = CursorCheckpoint.parse(json);
    } catch (CheckpointInvalidException e) {
      throw new DataIntegrityViolationException("checkpoint " + key + " holds invalid JSON: " + json, e);
    }
    return new StoredCheckpoint(
        key, checkpoint, CheckpointVersion.of(Long.toString(rs.getLong(2))), rs.getTimestamp(3, utc()).toInstant());
  }

  // ---- binding ----

  private static int bindKey(PreparedStatement ps, int from, CheckpointKey key) throws SQLException {
    ps.setString(from, key.listenerId());
    ps.setString(from + 1, key.streamName());
    ps.setLong(from + 2, Integer.toUnsignedLong(key.partition()));
    return from + 3;
  }

  /** A fresh calendar per use: Calendar is mutable and drivers may touch it. */
  private static Calendar utc() {
    return Calendar.getInstance(TimeZone.getTimeZone("UTC"));
  }

  @Override
  public String toString() {
    return "JdbcCheckpointRepository[" + checkpointTable + ", " + leaseTable + "]";
  }
}
