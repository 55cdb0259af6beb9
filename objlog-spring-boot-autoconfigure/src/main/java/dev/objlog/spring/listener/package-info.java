/**
 * {@code @ObjlogListener}: annotated methods consume configured streams, split by role as in
 * spring-kafka: annotation ({@link dev.objlog.spring.listener.ObjlogListener}) → endpoint ({@link
 * dev.objlog.spring.listener.ObjlogListenerEndpoint}) → container factory ({@link
 * dev.objlog.spring.listener.ObjlogListenerContainerFactory}) → container ({@link
 * dev.objlog.spring.listener.ObjlogListenerContainer}) → registry ({@link
 * dev.objlog.spring.listener.ObjlogListenerEndpointRegistry}).
 *
 * <p>Owns: resolving annotations into endpoints, the per-partition consumer threads, argument
 * resolution (through spring-messaging's {@link
 * dev.objlog.spring.listener.ObjlogMessageHandlerMethodFactory}) and payload conversion, checkpoint
 * modes, retries and recovery ({@link
 * dev.objlog.spring.listener.ListenerErrorHandler}, {@link
 * dev.objlog.spring.listener.DeadLetterRecoverer}), the outcomes of unusable checkpoints, the
 * {@code objlog.listener} observation, the listener meters and the {@code objlog.listener.*} properties. Does not own: storing checkpoints
 * ({@code dev.objlog.spring.listener.checkpoint}), reading and tailing ({@code dev.objlog.read}),
 * sending ({@code ObjlogTemplate}). Group listeners
 * share partitions among instances through leases ({@link dev.objlog.coordination.PartitionSharing}).
 * {@code concurrency} limits the invocations running at once by dividing the partitions into lanes
 * (each partition keeps its own tailer thread).
 *
 * <p>Invariants: a partition's checkpoint never passes a record whose invocation did not return
 * normally unless the error handler recovered it; at most one thread consumes a (listener,
 * partition) in this process; a group partition runs only before its lease deadline and saves no
 * checkpoint after it; a checkpoint that cannot be used never leads to a silent jump (the
 * partition fails, or restarts where configured with a WARN log and a saved checkpoint).
 *
 * <p>Error contract: the error handler owns the retries ({@link
 * dev.objlog.spring.listener.FailedDelivery}); listener exceptions are retried per its back-off,
 * argument conversion and validation failures are not; then the records are recovered or the
 * partition stops (FAILED; the container is not in its expected state). Checkpoint save
 * conflicts (another instance advanced the checkpoint) stop the partition: FAILED without a group,
 * handed back to the group (released, taken again from the stored checkpoint) with one. Invalid endpoint
 * configuration fails startup with an {@code IllegalArgumentException}.
 */
@NullMarked
package dev.objlog.spring.listener;

import org.jspecify.annotations.NullMarked;
