package dev.objlog;

import dev.objlog.internal.LogRuntime;

/** Test-only access to package-private parts of {@link Objlog}. */
public final class ObjlogTestAccess {
  private ObjlogTestAccess() {}

  public static LogRuntime runtime(Objlog log) {
    return log.runtime();
  }
}
