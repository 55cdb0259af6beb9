/**
 * A decorator that makes any {@link dev.objlog.store.ObjectStore} slow and unreliable on purpose,
 * for tests and benchmarks.
 *
 * <p>Owns: {@link dev.objlog.store.fault.FaultInjectingObjectStore}: added latency and bandwidth
 * limits (slept through an injectable {@link dev.objlog.store.Sleeper}, so virtual time works),
 * injected faults chosen deterministically from a seed or from scripted rules, a mode that drops
 * write conditions (to prove the conditional-write self-test), and request counters by operation.
 * Does not own: retries (wrap it in a {@link dev.objlog.store.Retrier}, or put it under an adapter
 * that retries) or the stored data (the delegate keeps that).
 *
 * <p>Invariants: with no faults, no latency and conditions kept, it behaves exactly like its
 * delegate; a fault decision depends only on the seed, the operation, the key and how many times
 * that operation has been requested for that key, so a single-threaded run replays exactly; a
 * "before" fault never reaches the delegate, a "lost reply" fault always does.
 *
 * <p>Error contract: injected failures are {@link dev.objlog.store.TransientStoreException}s whose
 * {@code mayHaveTakenEffect} is true exactly when a write was, or may have been, passed to the
 * delegate (lost replies and write timeouts); the delegate's own errors pass through unchanged.
 */
@NullMarked
package dev.objlog.store.fault;

import org.jspecify.annotations.NullMarked;
