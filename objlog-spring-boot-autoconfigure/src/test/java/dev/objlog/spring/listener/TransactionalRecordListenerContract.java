package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.JdbcCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import dev.objlog.spring.listener.checkpoint.TestDatabases;
import dev.objlog.read.CursorCheckpoint;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * RECORD mode with {@code @ObjlogListener(transactionManager = ...)}: the method's insert and the
 * JDBC checkpoint save share one transaction on the checkpoints' DataSource, run against every
 * database the JDBC repository supports.
 */
abstract class TransactionalRecordListenerContract {
  static final CheckpointKey KEY = CheckpointKey.of("tx-record", "orders", 0);

  private DataSource dataSource;
  private @Nullable JdbcTemplate jdbc;
  private String prefix;

  protected abstract DataSource openDataSource();

  /** The listener: inserts each value into a table without a unique key, so a duplicate shows. */
  static class InsertingListener {
    final JdbcTemplate jdbc;
    final String table;
    final CheckpointRepository checkpoints;
    final TransactionTemplate separateTransaction;
    final AtomicInteger failOnceAttempts = new AtomicInteger();

    InsertingListener(DataSource dataSource, PlatformTransactionManager manager, CheckpointRepository checkpoints,
        String table) {
      this.jdbc = new JdbcTemplate(dataSource);
      this.table = table;
      this.checkpoints = checkpoints;
      this.separateTransaction = new TransactionTemplate(manager);
      separateTransaction.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
    }

    @ObjlogListener(id = "tx-record", stream = "orders", checkpointMode = "RECORD", transactionManager = "txManager")
    void on(String value) {
      jdbc.update("insert into " + table + " (v) values (?)", value);
      if (value.equals("fail-once") && failOnceAttempts.getAndIncrement() == 0) {
        throw new IllegalStateException("fails after its insert");
      }
      if (value.equals("conflict")) {
        // Another instance moves the checkpoint meanwhile: the container's save must conflict and
        // take this invocation's insert down with it.
        separateTransaction.executeWithoutResult(status -> {
          var stored = checkpoints.load(KEY).orElseThrow();
          checkpoints.save(KEY, CursorCheckpoint.of("orders", 0, 99), stored.version());
        });
      }
    }
  }

  @BeforeEach
  void openDatabase() {
    dataSource = openDataSource();
    jdbc = new JdbcTemplate(dataSource);
    prefix = TestDatabases.uniqueTablePrefix();
    jdbc.execute("create table " + prefix + "seen (v varchar(20) not null)");
  }

  @AfterEach
  void dropTables() {
    if (jdbc == null) {
      return; // the database was skipped
    }
    for (String table : List.of("seen", "checkpoint", "lease")) {
      jdbc.execute("drop table if exists " + prefix + table);
    }
  }

  private ApplicationContextRunner runner() {
    DataSourceTransactionManager manager = new DataSourceTransactionManager(dataSource);
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(DataSource.class, () -> dataSource)
        .withBean("txManager", PlatformTransactionManager.class, () -> manager)
        .withBean(InsertingListener.class, () -> new InsertingListener(dataSource, manager,
            new JdbcCheckpointRepository(new JdbcTemplate(dataSource), prefix, java.time.Clock.systemUTC()),
            prefix + "seen"))
        .withPropertyValues(
            "objlog.store.type=memory",
            "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.checkpoint.store=jdbc",
            "objlog.checkpoint.jdbc.initialize-schema=always",
            "objlog.checkpoint.jdbc.table-prefix=" + prefix,
            "objlog.listener.poll-interval=1h",
            "objlog.listener.back-off.interval=0",
            "objlog.listener.back-off.max-retries=3");
  }

  private List<String> rows() {
    return jdbc.queryForList("select v from " + prefix + "seen order by v", String.class);
  }

  @Test
  void aFailureAfterTheInsertRollsBackTheRowAndTheCheckpointSoTheRetryWritesOneRow() {
    runner().run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      for (String v : List.of("a", "fail-once", "b")) {
        template.send("orders", 0, v).get(30, TimeUnit.SECONDS);
      }
      awaitTrue(() -> rows().size() >= 3);
      CheckpointRepository checkpoints = context.getBean(CheckpointRepository.class);
      awaitTrue(() -> checkpoints.load(KEY).map(c -> c.checkpoint().nextLsn()).orElse(0L) == 3);

      assertThat(rows()).containsExactly("a", "b", "fail-once");
      assertThat(context.getBean(InsertingListener.class).failOnceAttempts).hasValue(2);
      assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("tx-record")).isTrue();
    });
  }

  @Test
  void aCheckpointSaveThatConflictsRollsBackTheInsertAndStopsThePartition() {
    runner().run(context -> {
      assertThat(context).hasNotFailed();
      ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
      template.send("orders", 0, "a").get(30, TimeUnit.SECONDS);
      template.send("orders", 0, "conflict").get(30, TimeUnit.SECONDS);
      ObjlogListenerContainer container =
          context.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("tx-record");
      awaitTrue(() -> !container.isInExpectedState());

      assertThat(rows()).containsExactly("a");
      assertThat(context.getBean(CheckpointRepository.class).load(KEY).orElseThrow().checkpoint().nextLsn())
          .as("the other instance's save stands").isEqualTo(99);
      assertThat(container.getPartitionStatuses().get(0).state())
          .isEqualTo(ObjlogListenerContainer.PartitionState.FAILED);
    });
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("condition within 30s").isLessThan(deadline);
      Thread.sleep(5);
    }
  }
}
