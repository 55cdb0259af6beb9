package dev.objlog.spring.listener.checkpoint;

import javax.sql.DataSource;

class EffectivelyOncePostgreSqlTests extends EffectivelyOnceContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.postgres();
  }
}
