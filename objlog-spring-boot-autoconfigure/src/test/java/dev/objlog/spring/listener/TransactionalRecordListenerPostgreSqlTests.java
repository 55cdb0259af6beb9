package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.TestDatabases;
import javax.sql.DataSource;

class TransactionalRecordListenerPostgreSqlTests extends TransactionalRecordListenerContract {
  @Override
  protected DataSource openDataSource() {
    return TestDatabases.postgres();
  }
}
