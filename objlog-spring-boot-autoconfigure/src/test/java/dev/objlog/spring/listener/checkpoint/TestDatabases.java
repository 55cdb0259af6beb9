package dev.objlog.spring.listener.checkpoint;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Assumptions;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The databases the JDBC tests run against. H2 always; PostgreSQL and MariaDB where CI (or a
 * developer) names them in {@code OBJLOG_TEST_POSTGRES_URL} / {@code OBJLOG_TEST_MARIADB_URL}.
 * Without the variable the tests skip, except under {@code CI=true}, where they fail.
 */
public final class TestDatabases {
  static final String POSTGRES_URL = "OBJLOG_TEST_POSTGRES_URL";
  static final String MARIADB_URL = "OBJLOG_TEST_MARIADB_URL";

  private TestDatabases() {}

  /** A fresh in-memory H2 database of its own. */
  public static DriverManagerDataSource h2() {
    return new DriverManagerDataSource(
        "jdbc:h2:mem:objlog_" + randomHex() + ";DB_CLOSE_DELAY=-1", "sa", "");
  }

  public static DriverManagerDataSource postgres() {
    return fromEnvironment(POSTGRES_URL);
  }

  public static DriverManagerDataSource mariadb() {
    return fromEnvironment(MARIADB_URL);
  }

  private static DriverManagerDataSource fromEnvironment(String variable) {
    String url = System.getenv(variable);
    if (url == null || url.isBlank()) {
      if (dev.objlog.testing.Ci.isCi()) {
        fail(variable + " is not set, but CI=true: CI must provide this database (see .ci/run)");
      }
      Assumptions.abort(variable + " is not set; skipping the tests against this database");
    }
    DriverManagerDataSource dataSource = new DriverManagerDataSource(url);
    try {
      new JdbcTemplate(dataSource).queryForObject("select 1", Integer.class);
    } catch (RuntimeException e) {
      fail(variable + "=" + url + " is set but the database is not reachable: " + e.getMessage(), e);
    }
    return dataSource;
  }

  /** A table prefix no other run uses, so runs sharing one database never collide. */
  public static String uniqueTablePrefix() {
    return "objlog_t" + randomHex() + "_";
  }

  private static String randomHex() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  }
}
