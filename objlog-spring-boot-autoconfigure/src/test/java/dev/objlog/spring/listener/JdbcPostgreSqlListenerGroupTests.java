package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.TestDatabases;
import javax.sql.DataSource;

/** The group scenarios with JDBC leases on PostgreSQL (OBJLOG_TEST_POSTGRES_URL; skipped without it, except under CI=true). */
class JdbcPostgreSqlListenerGroupTests extends JdbcListenerGroupContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.postgres();
  }
}
