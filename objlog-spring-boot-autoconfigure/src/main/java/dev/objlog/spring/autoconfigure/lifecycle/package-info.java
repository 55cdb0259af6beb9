/**
 * Auto-configuration of the retention and reclaim schedule: {@code objlog.lifecycle.*} and the
 * streams' retention policies become an {@link dev.objlog.spring.lifecycle.ObjlogMaintenance} bean
 * (always, for the actuator's write operations) and an {@link
 * dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler} (only with {@code
 * objlog.lifecycle.enabled=true}).
 *
 * <p>Owns: wiring only. Does not own: the schedule's behaviour ({@code dev.objlog.spring.lifecycle}).
 *
 * <p>Error contract: budgets the engine rejects fail startup.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.lifecycle;

import org.jspecify.annotations.NullMarked;
