/**
 * Retention and reclaim on a schedule for the configured streams: {@link
 * dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler} (a {@code SmartLifecycle}, off unless
 * {@code objlog.lifecycle.enabled=true}) and {@link dev.objlog.spring.lifecycle.ObjlogMaintenance}
 * (the operations it and the actuator endpoint share: request retention, apply it through this
 * instance's writers, reclaim and scrub).
 *
 * <p>Owns: turning each stream's retention policy ({@code objlog.streams.<name>.retention.*}) into
 * retention requests with rising policy versions, applying pending requests through the
 * template's open writers, and driving the engine's {@code Reclaimer} through its {@code
 * Scheduler} with the {@code objlog.lifecycle.*} budgets. Does not own: the retention, reclaim and
 * lease protocols (the engine's {@code dev.objlog} and {@code dev.objlog.lifecycle}), which
 * instance writes which partition (the template), consumer checkpoints (a {@link
 * dev.objlog.spring.lifecycle.ConsumerRetentionGate} bean supplies them).
 *
 * <p>Invariants: a retention request is made only when it advances the partition's mailbox, each
 * with the previous policy version plus one; retention is applied only under this instance's own
 * writer fence; nothing is deleted before the delete delay, as the engine guarantees; one pass at a
 * time per partition from this process.
 *
 * <p>Error contract: a failed step of a scheduled run is logged and retried on the next run (the
 * engine's scheduler retries reclaim passes with backoff first); nothing is thrown to the
 * application. The operations of {@link dev.objlog.spring.lifecycle.ObjlogMaintenance} throw the
 * engine's exceptions: {@code RetentionRegressionException} (a concurrent request won; retry),
 * {@code LeaseHeldException} (another reclaimer is running; retry later), store failures.
 */
@NullMarked
package dev.objlog.spring.lifecycle;

import org.jspecify.annotations.NullMarked;
