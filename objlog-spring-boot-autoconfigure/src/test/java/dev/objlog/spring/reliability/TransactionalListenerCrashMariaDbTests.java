package dev.objlog.spring.reliability;

import dev.objlog.spring.listener.checkpoint.TestDatabases;
import java.nio.file.Path;

class TransactionalListenerCrashMariaDbTests extends TransactionalListenerCrashContract {
  @Override
  protected String jdbcUrl(Path dir) {
    return TestDatabases.mariadb().getUrl();
  }
}
