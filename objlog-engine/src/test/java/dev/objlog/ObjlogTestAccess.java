package dev.objlog;

import dev.objlog.internal.LogRuntime;

/** Lets tests in other packages reach an {@link Objlog}'s runtime, as the engine's packages do. */
public final class ObjlogTestAccess {
  private ObjlogTestAccess() {}

  public static LogRuntime runtime(Objlog log) {
    return log.runtime();
  }
}
