package dev.objlog.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the log of a {@code @SpringBootTest} (or any Spring test context) on the memory store with
 * in-memory listener checkpoints and leases: {@code objlog.store.type=memory} and {@code
 * objlog.checkpoint.store=memory}, ahead of every other property source (the application's
 * {@code application.yml} and the test's own properties included), and an {@link ObjlogTester}
 * bean.
 *
 * <p>Every application context gets a store of its own: two test classes whose configurations
 * differ (so Spring's context cache holds two contexts) never see each other's records, while test
 * classes that share a cached context share its records, as they share its other beans. Nothing
 * is written to disk, and nothing survives the context. An application's own {@code ObjectStore}
 * or {@code CheckpointRepository} bean still replaces objlog's.
 *
 * <pre class="code">
 * &#64;SpringBootTest
 * &#64;InMemoryObjlog
 * class OrdersTests {
 *   &#64;Autowired ObjlogTemplate template;
 *   &#64;Autowired ObjlogTester objlog;
 *   ...
 * }
 * </pre>
 *
 * @see ObjlogTest the slice that starts only objlog
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@AutoConfigureObjlogTester
public @interface InMemoryObjlog {}
