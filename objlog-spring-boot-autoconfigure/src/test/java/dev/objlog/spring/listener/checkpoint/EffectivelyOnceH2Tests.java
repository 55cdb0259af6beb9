package dev.objlog.spring.listener.checkpoint;

import javax.sql.DataSource;

class EffectivelyOnceH2Tests extends EffectivelyOnceContract {

  @Override
  protected DataSource openDataSource() {
    return TestDatabases.h2();
  }
}
