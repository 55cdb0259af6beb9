package dev.objlog.cli;

/**
 * A mistake in a command or its configuration: printed as it is (no stack trace), exit code 2.
 *
 * <p>Thread-safety: immutable.
 */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CliException(String message) {
    super(message, null, false, false);
  }
}
