package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.TestDatabases;
import javax.sql.DataSource;

class TransactionalRecordListenerH2Tests extends TransactionalRecordListenerContract {
  @Override
  protected DataSource openDataSource() {
    return TestDatabases.h2();
  }
}
