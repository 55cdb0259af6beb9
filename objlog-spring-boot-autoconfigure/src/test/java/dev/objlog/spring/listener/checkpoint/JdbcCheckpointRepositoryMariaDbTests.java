package dev.objlog.spring.listener.checkpoint;

import javax.sql.DataSource;

/** The contract on the MariaDB named by {@code OBJLOG_TEST_MARIADB_URL}. */
class JdbcCheckpointRepositoryMariaDbTests extends JdbcRepositoryContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.mariadb();
  }

  @Override
  protected String expectedPlatform() {
    return "mysql";
  }
}
