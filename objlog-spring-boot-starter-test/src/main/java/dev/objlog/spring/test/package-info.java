/**
 * Test support for applications of the objlog starter, in the manner of spring-kafka-test:
 * {@link dev.objlog.spring.test.InMemoryObjlog} runs a {@code @SpringBootTest}'s log on a memory
 * store of its own, {@link dev.objlog.spring.test.ObjlogTest} is a slice that starts only objlog,
 * and {@link dev.objlog.spring.test.ObjlogTester} reads and awaits records and listener
 * checkpoints for assertions.
 *
 * <p>Owns: the test annotations, the context customizer that forces the memory store and
 * in-memory checkpoints, the slice's component filter and auto-configuration list, and the
 * tester. Does not own: the store, streams, template or listeners (the auto-configuration module),
 * or containers (Testcontainers; the MinIO service connection lives with the auto-configuration).
 *
 * <p>Invariants: every application context of {@code @InMemoryObjlog} or {@code @ObjlogTest} has
 * its own store, so records never cross between cached contexts; the tester only reads.
 *
 * <p>Error contract: awaits that time out throw {@link java.lang.AssertionError} naming what was
 * awaited and listing what the partition holds; an unknown stream name throws {@link
 * dev.objlog.spring.core.UnknownStreamException}, a partition outside the stream {@link
 * java.lang.IllegalArgumentException}; store failures propagate as the engine's exceptions.
 */
@NullMarked
package dev.objlog.spring.test;

import org.jspecify.annotations.NullMarked;
