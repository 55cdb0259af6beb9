package dev.objlog.spring.autoconfigure.store;

import dev.objlog.store.AccessDeniedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a startup step (the bucket check, the conditional-write self-test) that the store
 * refused for a missing permission: which request, which key, which permission to grant, and
 * where the permissions of each role are listed.
 */
class AccessDeniedFailureAnalyzer extends AbstractFailureAnalyzer<AccessDeniedException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, AccessDeniedException cause) {
    String key = cause.key().isEmpty() ? "" : " of '" + cause.key() + "'";
    return new FailureAnalysis(
        "objlog's object store refused the " + cause.operation() + key + " at startup: the credentials lack the"
            + " permission " + cause.permission() + ".\n\n    " + cause.getMessage(),
        "Grant " + cause.permission() + " to the credentials objlog uses; " + document(cause.permission())
            + " lists the permissions of each role (writer, reader, reclaimer). A service that only reads"
            + " cannot pass the conditional-write self-test, which writes: set"
            + " objlog.store.verify-conditional-writes=false for it.",
        cause);
  }

  private static String document(String permission) {
    if (permission.startsWith("s3:")) {
      return "docs/stores/s3.md";
    }
    if (permission.startsWith("storage.")) {
      return "docs/stores/gcs.md";
    }
    return "docs/stores/azure.md";
  }
}
