package dev.objlog.spring.listener;

/**
 * Carries a failure out of a transaction callback: the listener method's (checked exceptions
 * included) or the checkpoint save's, which must also get past the error handler.
 */
final class FailedInTransaction extends RuntimeException {
  private static final long serialVersionUID = 1L;

  final boolean inSave;

  FailedInTransaction(Exception cause, boolean inSave) {
    super(cause);
    this.inSave = inSave;
  }

  Exception failure() {
    return (Exception) getCause();
  }
}
