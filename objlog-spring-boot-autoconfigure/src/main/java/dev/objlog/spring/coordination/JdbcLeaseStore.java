package dev.objlog.spring.coordination;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseState;
import dev.objlog.coordination.LeaseStore;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.Calendar;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TimeZone;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;

/**
 * Leases as rows of the table {@code <prefix>lease} (the schema scripts of {@code
 * JdbcCheckpointRepository} create it), one row per (stored group, stream name, partition):
 * {@code group_id} is {@link LeaseId#rowGroup()}, {@code partition_id} {@link LeaseId#rowPartition()}
 * (a member slot's row lies beyond every partition's), and {@code owner}, {@code lease_until_ms}, {@code epoch} and {@code updated_at} its state. Every change
 * is a conditional insert or update, so concurrent instances cannot both win a lease.
 *
 * <p>Semantics: {@link LeaseStore}. On PostgreSQL, call it outside a transaction you want to keep:
 * a lost insert race aborts the surrounding transaction.
 *
 * <p>Error contract: refusals are answers; Spring's {@code DataAccessException} otherwise.
 *
 * <p>Thread-safety: safe for concurrent use, within and across processes.
 */
public final class JdbcLeaseStore implements LeaseStore {
  private static final int MAX_LEASE_ATTEMPTS = 8;

  private final JdbcOperations jdbc;
  private final Clock clock;
  private final String leaseTable;

  /**
   * A lease store.
   *
   * @param tablePrefix the prefix of the table name, checked as {@code JdbcCheckpointRepository}
   *     checks it
   * @param clock the source of the expiries written
   */
  public JdbcLeaseStore(JdbcOperations jdbc, String tablePrefix, Clock clock) {
    this.jdbc = Objects.requireNonNull(jdbc, "jdbc");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.leaseTable = Objects.requireNonNull(tablePrefix, "tablePrefix") + "lease";
  }

  /** The lease table's name. */
  public String leaseTable() {
    return leaseTable;
  }

  @Override
  public LeaseResult tryAcquire(LeaseId id, String owner, Duration ttl) {
    Objects.requireNonNull(id, "id");
    LeaseState.checkName("owner", owner);
    long ttlMs = LeaseState.ttlMillis(ttl);
    LeaseState current = null;
    for (int attempt = 0; attempt < MAX_LEASE_ATTEMPTS; attempt++) {
      long now = clock.millis();
      current = leaseRow(id);
      LeaseState next = LeaseState.acquire(current, owner, now, ttlMs);
      if (next == null) {
        return new LeaseResult.Refused(current == null ? null : current.validLeaseAt(now));
      }
      if (current == null ? insertLease(id, next, now) : updateLease(id, current, next, now)) {
        return new LeaseResult.Granted(next.toLease());
      }
      // Someone changed the row between our read and write: decide again on what is there now.
    }
    return new LeaseResult.Refused(current == null ? null : current.validLeaseAt(clock.millis()));
  }

  @Override
  public LeaseResult renew(LeaseId id, Lease held, Duration ttl) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(held, "held");
    long ttlMs = LeaseState.ttlMillis(ttl);
    long now = clock.millis();
    LeaseState renewed = new LeaseState(held.owner(), LeaseState.expiry(now, ttlMs), held.epoch());
    int updated = jdbc.update(
        "update " + leaseTable + " set lease_until_ms = ?, updated_at = ?"
            + " where group_id = ? and stream_name = ? and partition_id = ? and owner = ? and epoch = ?",
        ps -> {
          ps.setLong(1, renewed.untilMs());
          ps.setTimestamp(2, new Timestamp(now), utc());
          int i = bindKey(ps, 3, id);
          ps.setString(i++, held.owner());
          ps.setLong(i, held.epoch());
        });
    if (updated == 1) {
      return new LeaseResult.Granted(renewed.toLease());
    }
    LeaseState current = leaseRow(id);
    return new LeaseResult.Refused(current == null ? null : current.validLeaseAt(now));
  }

  @Override
  public boolean release(LeaseId id, Lease held) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(held, "held");
    long now = clock.millis();
    return jdbc.update(
            "update " + leaseTable + " set owner = ?, lease_until_ms = 0, updated_at = ?"
                + " where group_id = ? and stream_name = ? and partition_id = ? and owner = ? and epoch = ?",
            ps -> {
              ps.setString(1, LeaseState.RELEASED);
              ps.setTimestamp(2, new Timestamp(now), utc());
              int i = bindKey(ps, 3, id);
              ps.setString(i++, held.owner());
              ps.setLong(i, held.epoch());
            })
        == 1;
  }

  @Override
  public Optional<Lease> current(LeaseId id) {
    Objects.requireNonNull(id, "id");
    LeaseState current = leaseRow(id);
    return current == null ? Optional.empty() : Optional.ofNullable(current.validLeaseAt(clock.millis()));
  }

  private @Nullable LeaseState leaseRow(LeaseId id) {
    List<LeaseState> rows = jdbc.query(
        "select owner, lease_until_ms, epoch from " + leaseTable
            + " where group_id = ? and stream_name = ? and partition_id = ?",
        ps -> bindKey(ps, 1, id),
        (rs, n) -> new LeaseState(nullToEmpty(rs.getString(1)), rs.getLong(2), rs.getLong(3)));
    return rows.isEmpty() ? null : rows.get(0);
  }

  private boolean insertLease(LeaseId id, LeaseState next, long now) {
    try {
      jdbc.update(
          "insert into " + leaseTable
              + " (group_id, stream_name, partition_id, owner, lease_until_ms, epoch, updated_at)"
              + " values (?, ?, ?, ?, ?, ?, ?)",
          ps -> {
            int i = bindKey(ps, 1, id);
            ps.setString(i++, next.owner());
            ps.setLong(i++, next.untilMs());
            ps.setLong(i++, next.epoch());
            ps.setTimestamp(i, new Timestamp(now), utc());
          });
      return true;
    } catch (DuplicateKeyException e) {
      return false;
    }
  }

  private boolean updateLease(LeaseId id, LeaseState current, LeaseState next, long now) {
    return jdbc.update(
            "update " + leaseTable + " set owner = ?, lease_until_ms = ?, epoch = ?, updated_at = ?"
                + " where group_id = ? and stream_name = ? and partition_id = ?"
                + " and owner = ? and lease_until_ms = ? and epoch = ?",
            ps -> {
              ps.setString(1, next.owner());
              ps.setLong(2, next.untilMs());
              ps.setLong(3, next.epoch());
              ps.setTimestamp(4, new Timestamp(now), utc());
              int i = bindKey(ps, 5, id);
              ps.setString(i++, current.owner());
              ps.setLong(i++, current.untilMs());
              ps.setLong(i, current.epoch());
            })
        == 1;
  }

  private static int bindKey(PreparedStatement ps, int from, LeaseId id) throws SQLException {
    ps.setString(from, id.rowGroup());
    ps.setString(from + 1, id.streamName());
    ps.setLong(from + 2, id.rowPartition());
    return from + 3;
  }

  private static String nullToEmpty(@Nullable String s) {
    // Oracle-style databases store '' as NULL; treat both as "released".
    return s == null ? "" : s;
  }

  /** A fresh calendar per use: Calendar is mutable and drivers may touch it. */
  private static Calendar utc() {
    return Calendar.getInstance(TimeZone.getTimeZone("UTC"));
  }

  @Override
  public String toString() {
    return "JdbcLeaseStore[" + leaseTable + "]";
  }
}
