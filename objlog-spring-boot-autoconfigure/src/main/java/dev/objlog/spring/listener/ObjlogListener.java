package dev.objlog.spring.listener;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as the listener of a configured stream: a container tails the assigned
 * partitions from the stored checkpoint (or {@link #startPosition()} when none is stored), invokes
 * the method with each record (or each batch) and checkpoints as {@link #checkpointMode()} says.
 * Delivery is at least once (docs/LISTENERS.md).
 *
 * <p>Every string attribute resolves {@code ${...}} placeholders, then {@code #{...}} expressions in
 * which {@code __listener} is the declaring bean; a value that does not parse as its attribute's
 * type fails startup naming the listener and the attribute. Repeatable, and usable as a
 * meta-annotation. Method arguments: the converted payload (String, byte[], ByteBuffer, or JSON
 * through the application's JsonMapper), {@code @Header} with {@link
 * dev.objlog.spring.core.ObjlogHeaders} names or record header names, the {@link
 * dev.objlog.read.ReadRecord}, an {@link Acknowledgment} (MANUAL mode) and, with {@link #batch()},
 * a {@code List} of any of the payload types or of {@code ReadRecord}.
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(ObjlogListeners.class)
public @interface ObjlogListener {

  /** The listener id: names the container in the registry and, without a group, its checkpoints. */
  String id();

  /**
   * The configured stream name ({@code objlog.streams.<name>}); with {@code
   * objlog.defaults.auto-create}, also the name of a stream that is not configured.
   */
  String stream();

  /** Partitions to consume: {@code *} (all) or partitions and ranges such as {@code 0-3,8}. */
  String partitions() default "*";

  /**
   * Where to start on a partition without a checkpoint: {@code earliest}, {@code latest}, {@code
   * snapshot} (the bean implements {@link SnapshotAwareListener}), {@code timestamp:<ISO-8601
   * instant>} or {@code lsn:<n>}. Empty: {@code objlog.listener.start-position}.
   */
  String startPosition() default "";

  /** RECORD, BATCH, COUNT, TIME or MANUAL; empty: {@code objlog.listener.checkpoint-mode}. */
  String checkpointMode() default "";

  /** COUNT mode: checkpoint after this many records; empty: {@code objlog.listener.ack-count}. */
  String ackCount() default "";

  /** TIME mode: checkpoint when this much time passed (a Duration); empty: the property. */
  String ackTime() default "";

  /**
   * How many invocations of this listener may run at once: the partitions it consumes are divided
   * into this many lanes (partition number modulo concurrency) and each lane invokes the method
   * for one record (or batch) at a time, so records of one partition stay in order. Empty: one
   * lane per partition.
   */
  String concurrency() default "";

  /** {@code true}: the method receives each read batch as a {@code List}. */
  String batch() default "false";

  /** Bean name of a {@link ListenerErrorHandler}; empty: the factory's. */
  String errorHandler() default "";

  /**
   * Bean name of a {@code PlatformTransactionManager}; RECORD mode only. Each invocation then runs
   * in a transaction of it, and the checkpoint is saved before that transaction commits. With a
   * JDBC checkpoint repository on the manager's DataSource, the method's own database writes and
   * the checkpoint commit or roll back together (effectively once, docs/LISTENERS.md). Empty: the
   * container factory's ({@link ObjlogListenerContainerFactory#setTransactionManager}, none by
   * default).
   */
  String transactionManager() default "";

  /** Bean name of the {@link ObjlogListenerContainerFactory}; empty: the default one. */
  String containerFactory() default "";

  /** {@code false}: the registry does not start this listener with the context. */
  String autoStartup() default "true";

  /**
   * Consumer group: checkpoints are kept under the group instead of the id, and the instances with
   * the same group share the assigned partitions through leases in the checkpoint repository: each
   * partition runs in one instance at a time, each instance takes about its fair share, and the
   * partitions of an instance that stops (or cannot renew) move to the others, continuing from the
   * stored checkpoint. Lease timing: {@code objlog.listener.group.*}; docs/LISTENERS.md, "Groups".
   */
  String group() default "";
}
