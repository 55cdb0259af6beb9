package dev.objlog.spring.reliability;

import java.nio.file.Path;

/**
 * H2 in file mode: the child and this JVM open the database in turn, never at once. With H2's
 * default write delay (500 ms) a commit is in memory only until the store's background writer
 * runs, so a SIGKILL right after {@code commit()} returned loses that transaction (row and
 * checkpoint together: the record is redelivered, still one row in the end). {@code
 * WRITE_DELAY=0} writes each commit before it returns, which the after-commit check needs.
 */
class TransactionalListenerCrashH2Tests extends TransactionalListenerCrashContract {
  @Override
  protected String jdbcUrl(Path dir) {
    return "jdbc:h2:file:" + dir.resolve("h2").resolve("db") + ";WRITE_DELAY=0;USER=sa;PASSWORD=";
  }
}
