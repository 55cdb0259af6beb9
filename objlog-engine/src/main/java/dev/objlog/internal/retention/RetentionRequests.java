package dev.objlog.internal.retention;

import dev.objlog.InvalidArgumentException;
import dev.objlog.RetentionGate;
import dev.objlog.RetentionRegressionException;
import dev.objlog.RetentionRequest;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.internal.LogRuntime;
import dev.objlog.internal.metrics.MetricNames;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code Objlog.requestRetention}: the gate clamp, then the mailbox write (PROTOCOLS.md §5.7).
 *
 * <p>Thread-safety: stateless.
 */
public final class RetentionRequests {
  private RetentionRequests() {}

  /**
   * Lowers {@code beforeLsn} to what {@code gate} allows, then records the request in the
   * mailbox. A request the gate holds at or below the stored one (or at 0) writes nothing.
   *
   * @throws InvalidArgumentException if {@code policyVersion} is 0
   * @throws RetentionRegressionException if the request goes backwards
   */
  public static RetentionRequest request(LogRuntime runtime, int partition, long policyVersion,
      long beforeLsn, RetentionGate gate) {
    if (policyVersion == 0) {
      throw new InvalidArgumentException("a retention policy version must be positive");
    }
    PartitionKeys keys = runtime.keys(partition);
    long allowed = gate.retainableBefore(partition);
    long effective = Long.compareUnsigned(beforeLsn, allowed) <= 0 ? beforeLsn : allowed;
    try {
      if (effective != beforeLsn) {
        Optional<RetentionMailbox.Stored> stored = RetentionMailbox.read(runtime.store(), keys);
        long storedBefore = stored.map(s -> s.mailbox().beforeLsn()).orElse(0L);
        if (Long.compareUnsigned(effective, storedBefore) <= 0) {
          RetentionMailbox current = stored.map(RetentionMailbox.Stored::mailbox).orElse(null);
          if (current != null && !(current.policyVersion() == policyVersion
              && current.beforeLsn() == effective)) {
            // The caller's own request must still advance: a regression stays a regression.
            RetentionMailbox.checkAdvances(current, policyVersion, beforeLsn);
          }
          count(runtime, partition, RetentionRequest.Outcome.HELD_BACK.name());
          return current == null
              ? new RetentionRequest(partition, 0, 0, 0, beforeLsn, RetentionRequest.Outcome.HELD_BACK)
              : new RetentionRequest(partition, current.policyVersion(), current.beforeLsn(),
                  current.createdUnixMs(), beforeLsn, RetentionRequest.Outcome.HELD_BACK);
        }
      }
      RetentionMailbox.Written written = RetentionMailbox.write(runtime.store(), keys,
          policyVersion, effective, runtime.clock().millis(), runtime.options().sleeper());
      RetentionRequest.Outcome outcome = RetentionRequest.Outcome.valueOf(written.outcome().name());
      count(runtime, partition, outcome.name());
      RetentionMailbox m = written.mailbox();
      return new RetentionRequest(partition, m.policyVersion(), m.beforeLsn(), m.createdUnixMs(),
          beforeLsn, outcome);
    } catch (RetentionRegressionException e) {
      count(runtime, partition, "regression");
      throw e;
    }
  }

  /** The partition's current request, if any. */
  public static Optional<RetentionRequest> current(LogRuntime runtime, int partition) {
    return RetentionMailbox.read(runtime.store(), runtime.keys(partition))
        .map(s -> new RetentionRequest(partition, s.mailbox().policyVersion(),
            s.mailbox().beforeLsn(), s.mailbox().createdUnixMs(), s.mailbox().beforeLsn(),
            RetentionRequest.Outcome.UNCHANGED));
  }

  private static void count(LogRuntime runtime, int partition, String outcome) {
    runtime.meters().counter(MetricNames.RETENTION_REQUESTS,
        runtime.tags(partition).and(MetricNames.TAG_OUTCOME, outcome.toLowerCase(Locale.ROOT)))
        .increment();
  }
}
