package dev.objlog.spring.listener.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.read.CursorCheckpoint;
import java.time.Clock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Effectively-once: a listener method running in a Spring transaction on the checkpoint's own
 * DataSource inserts its business row and saves the checkpoint in that transaction, so both commit
 * or both roll back. The "listener" here is a plain transactional method run by a {@link
 * TransactionTemplate}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class EffectivelyOnceContract {
  static final CheckpointKey KEY = CheckpointKey.of("billing", "orders", 0);

  private @Nullable DataSource dataSource;
  private String prefix = "";
  private JdbcTemplate jdbc;
  private TransactionTemplate transaction;
  private JdbcCheckpointRepository checkpoints;

  protected abstract DataSource openDataSource();

  @BeforeAll
  void createTables() {
    dataSource = openDataSource();
    jdbc = new JdbcTemplate(dataSource);
    prefix = TestDatabases.uniqueTablePrefix();
    ObjlogCheckpointProperties.Jdbc settings = new ObjlogCheckpointProperties.Jdbc();
    settings.setTablePrefix(prefix);
    new CheckpointSchemaInitializer(dataSource, settings).initialize();
    jdbc.execute("create table " + prefix + "invoice (id varchar(64) not null primary key)");
    transaction = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    checkpoints = new JdbcCheckpointRepository(new JdbcTemplate(dataSource), prefix, Clock.systemUTC());
  }

  @AfterAll
  void dropTables() {
    if (dataSource != null) {
      for (String table : new String[] {"invoice", "checkpoint", "lease"}) {
        jdbc.execute("drop table if exists " + prefix + table);
      }
    }
  }

  @BeforeEach
  void emptyTables() {
    jdbc.update("delete from " + prefix + "invoice");
    jdbc.update("delete from " + prefix + "checkpoint");
  }

  /** The listener: records its effect, then moves its checkpoint past the record, then maybe fails. */
  private void listener(String invoice, long nextLsn, CheckpointVersion from, boolean fail) {
    jdbc.update("insert into " + prefix + "invoice (id) values (?)", invoice);
    checkpoints.save(KEY, CursorCheckpoint.of("demo/orders", 0, nextLsn), from);
    if (fail) {
      throw new IllegalStateException("listener failed after its insert");
    }
  }

  private void inTransaction(Runnable body) {
    transaction.executeWithoutResult(status -> body.run());
  }

  private long invoices() {
    return jdbc.queryForObject("select count(*) from " + prefix + "invoice", Long.class);
  }

  @Test
  void aListenerThatFailsAfterItsInsertRollsBackTheRowAndTheCheckpoint() {
    assertThatThrownBy(() -> inTransaction(() -> listener("inv-1", 1, CheckpointVersion.ABSENT, true)))
        .isInstanceOf(IllegalStateException.class);

    assertThat(invoices()).isZero();
    assertThat(checkpoints.load(KEY)).isEmpty();
  }

  @Test
  void aListenerThatSucceedsCommitsTheRowAndTheCheckpoint() {
    inTransaction(() -> listener("inv-1", 1, CheckpointVersion.ABSENT, false));

    assertThat(invoices()).isEqualTo(1);
    StoredCheckpoint stored = checkpoints.load(KEY).orElseThrow();
    assertThat(stored.checkpoint().nextLsn()).isEqualTo(1);

    assertThatThrownBy(() -> inTransaction(() -> listener("inv-2", 2, stored.version(), true)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(invoices()).isEqualTo(1);
    assertThat(checkpoints.load(KEY).orElseThrow()).isEqualTo(stored);

    inTransaction(() -> listener("inv-2", 2, stored.version(), false));
    assertThat(invoices()).isEqualTo(2);
    assertThat(checkpoints.load(KEY).orElseThrow().checkpoint().nextLsn()).isEqualTo(2);
  }

  @Test
  void aListenerWhoseCheckpointWasAdvancedElsewhereRollsBackItsRow() {
    CheckpointVersion v1 = checkpoints.save(KEY, CursorCheckpoint.of("demo/orders", 0, 1), CheckpointVersion.ABSENT);
    CheckpointVersion v2 = checkpoints.save(KEY, CursorCheckpoint.of("demo/orders", 0, 2), v1);

    assertThatThrownBy(() -> inTransaction(() -> listener("inv-late", 2, v1, false)))
        .isInstanceOf(CheckpointConflictException.class);

    assertThat(invoices()).isZero();
    assertThat(checkpoints.load(KEY).orElseThrow().version()).isEqualTo(v2);
  }

  @Test
  void aListenerRacingAnotherToCreateTheCheckpointRollsBackItsRow() {
    inTransaction(() -> listener("inv-1", 1, CheckpointVersion.ABSENT, false));

    assertThatThrownBy(() -> inTransaction(() -> listener("inv-dup", 1, CheckpointVersion.ABSENT, false)))
        .isInstanceOf(CheckpointConflictException.class);

    assertThat(invoices()).isEqualTo(1);
  }
}
