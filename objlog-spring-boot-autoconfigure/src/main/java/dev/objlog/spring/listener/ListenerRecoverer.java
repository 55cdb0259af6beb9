package dev.objlog.spring.listener;

/**
 * Disposes of records whose retries ran out, for instance by writing them to a dead-letter stream
 * ({@link DeadLetterRecoverer}). Returning normally means "recovered": the container moves past the
 * records and checkpoints. Throwing means "not recovered": the partition stops.
 *
 * <p>Thread-safety: called from each partition's thread; must be safe for concurrent use.
 */
@FunctionalInterface
public interface ListenerRecoverer {
  void recover(ListenerFailure failure) throws Exception;
}
