package dev.objlog.spring.autoconfigure.store;

import dev.objlog.store.ConditionalWritesNotHonouredException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a failed startup self-test: the store accepted a write whose condition should fail. */
class ConditionalWritesNotHonouredFailureAnalyzer
    extends AbstractFailureAnalyzer<ConditionalWritesNotHonouredException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, ConditionalWritesNotHonouredException cause) {
    return new FailureAnalysis(
        "objlog's startup self-test found that the object store does not honour conditional writes:\n\n    "
            + cause.getMessage() + "\n\nobjlog fences writers with create-only (If-None-Match: *) and"
            + " compare-and-swap (If-Match) writes; on this store two writers could both commit and"
            + " overwrite each other's records.",
        "Use a store that honours write conditions (Amazon S3, Google Cloud Storage, Azure Blob"
            + " Storage, MinIO, or the filesystem store), or configure the gateway or proxy in front of"
            + " it to pass If-None-Match and If-Match through. Setting"
            + " objlog.store.verify-conditional-writes=false skips this check; it does not make the"
            + " store safe.",
        cause);
  }
}
