package dev.objlog.spring.listener.checkpoint;

import javax.sql.DataSource;

class EffectivelyOnceMariaDbTests extends EffectivelyOnceContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.mariadb();
  }
}
