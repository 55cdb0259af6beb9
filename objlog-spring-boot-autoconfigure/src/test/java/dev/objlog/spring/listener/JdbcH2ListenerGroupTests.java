package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.TestDatabases;
import javax.sql.DataSource;

/** The group scenarios with JDBC leases on H2. */
class JdbcH2ListenerGroupTests extends JdbcListenerGroupContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.h2();
  }
}
