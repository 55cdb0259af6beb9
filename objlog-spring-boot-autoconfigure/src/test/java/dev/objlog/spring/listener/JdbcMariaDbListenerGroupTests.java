package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.TestDatabases;
import javax.sql.DataSource;

/** The group scenarios with JDBC leases on MariaDB (OBJLOG_TEST_MARIADB_URL; skipped without it, except under CI=true). */
class JdbcMariaDbListenerGroupTests extends JdbcListenerGroupContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.mariadb();
  }
}
