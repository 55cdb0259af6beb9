/**
 * The Spring-facing log API: {@link dev.objlog.spring.core.ObjlogStreams} (one {@code Objlog} and
 * one shared reader per configured stream, by name) and {@link dev.objlog.spring.core.ObjlogTemplate}
 * (sends that complete when durable, through one fenced writer per partition this instance writes).
 *
 * <p>Owns: naming streams by their configured name, opening streams that are not configured when
 * asked to ({@link dev.objlog.spring.core.StreamAutoCreator}: the partition count record in the
 * bucket), the key-to-partition hash ({@link
 * dev.objlog.spring.core.KeyPartitioner}), the writer-partition sets, value conversion, the
 * template's writers (lazy opening, re-opening, timestamps, closing), sharing writer partitions
 * among instances by lease (the engine's {@link dev.objlog.coordination.PartitionSharing} over a
 * {@link dev.objlog.coordination.LeaseStore}, turned into writers by a package-private adapter) and the cached state health and the actuator endpoint read ({@link
 * dev.objlog.spring.core.StoreActivity}, {@link dev.objlog.spring.core.LocalWriterStatus}) and the opt-in
 * {@code objlog.template} observation of sends, whose sender context carries the trace context in
 * record headers as far as the record's header limits allow ({@link
 * dev.objlog.spring.core.ObjlogTemplateObservation}). Does not own: binding or checking properties
 * ({@code dev.objlog.spring.autoconfigure}), the engine's writer and reader protocols, listeners,
 * retention.
 *
 * <p>Invariants: a stream is always named by its configured name (an auto-created one by its
 * id), never its stream id; an auto-created stream's partition count is the one recorded in the
 * bucket, or it is not opened; this
 * instance opens writers only for partitions in its configured writer set (with writer leases:
 * only for those whose lease it holds, and it closes a partition's writer before releasing its
 * lease), at most one per partition at a time; record timestamps sent through the template never decrease within a
 * partition (max(now, last)); a send's future completes only once the record is committed, i.e.
 * readable by any reader.
 *
 * <p>Error contract: caller errors (unknown stream, partition out of range or not written here,
 * values that cannot be converted or are too large) throw at once and are not retryable, except a
 * {@link dev.objlog.spring.core.PartitionNotWritableException} from a keyed send to a stream with
 * writer leases: a rebalance took the picked partition away, and a retry picks again. Everything
 * the log or store decides fails the returned future instead: {@link dev.objlog.StaleWriterException}
 * (another writer owns the partition: terminal unless re-opening is configured), {@link
 * dev.objlog.WriterBackpressureException} (retry later), store failures once the writer's retries
 * are spent; all of these mean the record is not in the log. A commit that ended indeterminate is
 * settled by the template (take over, {@code Objlog.commitStatus}, send again what did not land);
 * only when that cannot decide does a future fail with {@link
 * dev.objlog.CommitIndeterminateException} (maybe committed).
 */
@NullMarked
package dev.objlog.spring.core;

import org.jspecify.annotations.NullMarked;
