package dev.objlog.spring.reliability;

import dev.objlog.spring.listener.checkpoint.TestDatabases;
import java.nio.file.Path;

class TransactionalListenerCrashPostgreSqlTests extends TransactionalListenerCrashContract {
  @Override
  protected String jdbcUrl(Path dir) {
    return TestDatabases.postgres().getUrl();
  }
}
