package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.JdbcCheckpointRepository;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transactional pattern on H2: the listener writes its effect and acknowledges in one
 * transaction on the checkpoints' DataSource, so a failure after the acknowledgment rolls back
 * both, and the retry applies the record exactly once.
 */
class EffectivelyOnceListenerTests {

  static class TxListener {
    final JdbcTemplate jdbc;
    final TransactionTemplate tx;
    final CheckpointRepository checkpoints;
    final AtomicInteger failures = new AtomicInteger();
    final List<Long> checkpointSeenOnRetry = new CopyOnWriteArrayList<>();

    TxListener(DataSource dataSource, CheckpointRepository checkpoints) {
      this.jdbc = new JdbcTemplate(dataSource);
      this.tx = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
      this.checkpoints = checkpoints;
      jdbc.execute("create table seen (v varchar(20) primary key)");
    }

    @ObjlogListener(id = "tx", stream = "orders", checkpointMode = "MANUAL")
    void on(String value, Acknowledgment ack) {
      if (value.equals("fail-once") && failures.get() == 1) {
        checkpointSeenOnRetry.add(checkpoints.load(CheckpointKey.of("tx", "orders", 0))
            .map(c -> c.checkpoint().nextLsn()).orElse(-1L));
      }
      tx.executeWithoutResult(status -> {
        jdbc.update("insert into seen (v) values (?)", value);
        ack.acknowledge();
        if (value.equals("fail-once") && failures.getAndIncrement() == 0) {
          throw new IllegalStateException("fails after the checkpoint was saved in the transaction");
        }
      });
    }
  }

  @Test
  void aFailureAfterTheAcknowledgmentRollsBackTheEffectAndTheCheckpointTogether() {
    DriverManagerDataSource dataSource =
        new DriverManagerDataSource("jdbc:h2:mem:listener_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class,
            ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class,
            ObjlogListenerAutoConfiguration.class))
        .withBean(DataSource.class, () -> dataSource)
        .withBean(TxListener.class)
        .withPropertyValues(
            "objlog.store.type=memory",
            "objlog.streams.orders.writer.batch.max-delay=1ms",
            "objlog.checkpoint.jdbc.initialize-schema=always",
            "objlog.listener.poll-interval=1h",
            "objlog.listener.back-off.interval=0",
            "objlog.listener.back-off.max-retries=3")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(CheckpointRepository.class)).isInstanceOf(JdbcCheckpointRepository.class);
          ObjlogTemplate template = context.getBean(ObjlogTemplate.class);
          for (String v : List.of("a", "fail-once", "b")) {
            template.send("orders", 0, v).get(30, TimeUnit.SECONDS);
          }
          TxListener listener = context.getBean(TxListener.class);
          long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
          while (listener.jdbc.queryForObject("select count(*) from seen", Integer.class) < 3) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.sleep(5);
          }
          List<Map<String, Object>> rows = listener.jdbc.queryForList("select v from seen order by v");
          assertThat(rows).extracting(r -> r.get("V")).containsExactly("a", "b", "fail-once");
          // the failed attempt's checkpoint (2) was rolled back with its row
          assertThat(listener.checkpointSeenOnRetry).containsExactly(1L);
          assertThat(context.getBean(CheckpointRepository.class).load(CheckpointKey.of("tx", "orders", 0))
              .orElseThrow().checkpoint().nextLsn()).isEqualTo(3);
          assertThat(context.getBean(ObjlogListenerEndpointRegistry.class).isInExpectedState("tx")).isTrue();
        });
  }
}
