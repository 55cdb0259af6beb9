package dev.objlog.spring.listener.checkpoint;

import javax.sql.DataSource;

/** The contract on the PostgreSQL named by {@code OBJLOG_TEST_POSTGRES_URL}. */
class JdbcCheckpointRepositoryPostgreSqlTests extends JdbcRepositoryContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.postgres();
  }

  @Override
  protected String expectedPlatform() {
    return "postgresql";
  }
}
