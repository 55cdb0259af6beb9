package dev.objlog.spring.reliability;

import dev.objlog.read.ReadRecord;
import dev.objlog.spring.listener.ObjlogListener;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The child JVM of {@link TransactionalListenerCrashTests}: an effectively-once listener (RECORD
 * mode with a transaction manager) that inserts one row per record, its checkpoint saved by the
 * JDBC repository in the same transaction. Its DataSource hands out connections whose {@code
 * commit()} of a transaction that inserted a row prints {@code COMMITTED <lsn> .} after it returns;
 * with {@code crash.pause=BEFORE_COMMIT} or {@code AFTER_COMMIT} the {@code crash.pause-at}-th such
 * commit prints {@code PAUSED <point> <lsn> .} just before (or after) delegating and blocks, so the
 * parent's SIGKILL lands exactly there.
 *
 * <p>Arguments: Spring properties ({@code name=value}), passed through; {@code crash.jdbc-url},
 * {@code crash.table}.
 */
public final class TransactionalListenerCrashChild {
  static final PrintStream OUT =
      new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
  static final String LISTENER = "tx-crash";

  /** The record the current thread's transaction is about (the container runs both on one thread). */
  private static final ThreadLocal<Long> CURRENT = new ThreadLocal<>();

  private TransactionalListenerCrashChild() {}

  public static void main(String[] args) throws InterruptedException {
    new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).properties(args).run();
    OUT.println("READY .");
    Thread.currentThread().join();
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    DataSource dataSource(@Value("${crash.jdbc-url}") String url, @Value("${crash.table}") String table,
        @Value("${crash.pause:NONE}") String pause, @Value("${crash.pause-at:0}") int pauseAt) {
      return pausingDataSource(new DriverManagerDataSource(url), "insert into " + table, pause, pauseAt);
    }

    @Bean
    PlatformTransactionManager txManager(DataSource dataSource) {
      return new DataSourceTransactionManager(dataSource);
    }

    @Bean
    Inserter inserter(DataSource dataSource, @Value("${crash.table}") String table) {
      return new Inserter(new JdbcTemplate(dataSource), table);
    }
  }

  static class Inserter {
    private final JdbcTemplate jdbc;
    private final String table;

    Inserter(JdbcTemplate jdbc, String table) {
      this.jdbc = jdbc;
      this.table = table;
    }

    @ObjlogListener(id = LISTENER, stream = "orders", checkpointMode = "RECORD", transactionManager = "txManager")
    void on(ReadRecord record) {
      CURRENT.set(record.lsn());
      jdbc.update("insert into " + table + " (lsn) values (?)", record.lsn());
      OUT.println("GOT " + Long.toUnsignedString(record.lsn()) + " .");
    }
  }

  /**
   * Connections that remember whether their transaction ran {@code insertPrefix}, and pause around
   * the commit of such a transaction as configured. Everything else passes straight through.
   */
  static DataSource pausingDataSource(DataSource target, String insertPrefix, String pause, int pauseAt) {
    AtomicInteger commits = new AtomicInteger();
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          Object result = invoke(target, method, args);
          if (result instanceof Connection connection) {
            return pausingConnection(connection, insertPrefix, pause, pauseAt, commits);
          }
          return result;
        });
  }

  private static Connection pausingConnection(Connection target, String insertPrefix, String pause, int pauseAt,
      AtomicInteger commits) {
    boolean[] inserted = {false};
    return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "prepareStatement" -> {
              if (args != null && args[0] instanceof String sql && sql.startsWith(insertPrefix)) {
                inserted[0] = true;
              }
            }
            case "rollback" -> inserted[0] = false;
            case "commit" -> {
              if (!inserted[0]) {
                break;
              }
              inserted[0] = false;
              long lsn = CURRENT.get() == null ? -1 : CURRENT.get();
              int n = commits.incrementAndGet();
              if (n == pauseAt && pause.equals("BEFORE_COMMIT")) {
                pauseForever("BEFORE_COMMIT", lsn);
              }
              Object result = invoke(target, method, args);
              OUT.println("COMMITTED " + lsn + " .");
              if (n == pauseAt && pause.equals("AFTER_COMMIT")) {
                pauseForever("AFTER_COMMIT", lsn);
              }
              return result;
            }
            default -> {
              // passes through
            }
          }
          return invoke(target, method, args);
        });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static void pauseForever(String point, long lsn) {
    OUT.println("PAUSED " + point + " " + lsn + " .");
    while (true) {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        // Only the parent's SIGKILL ends this transaction.
      }
    }
  }
}
