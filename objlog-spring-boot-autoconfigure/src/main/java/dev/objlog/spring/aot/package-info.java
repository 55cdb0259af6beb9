/**
 * Spring AOT and GraalVM native images: the hints objlog's own code needs, contributed when an
 * application is processed ahead of time ({@code process-aot}), through {@code
 * META-INF/spring/aot.factories}.
 *
 * <p>Owns: {@link dev.objlog.spring.aot.ObjlogRuntimeHints} (resources and reflective calls of the
 * starter itself) and {@link dev.objlog.spring.aot.ObjlogListenerBeanRegistrationAotProcessor}
 * (invocation hints for {@code @ObjlogListener} methods and binding hints for their payload
 * types). Does not own: hints for the values an application sends through the template (the
 * application registers those, for example with {@code @RegisterReflectionForBinding}), for
 * {@code @ConfigurationProperties} classes (Spring Boot's own AOT processing binds them), or for
 * the provider SDKs and zstd-jni (docs/SPRING.md, "AOT and native images").
 *
 * <p>Invariants: runs at build time only; nothing here is used by a running application.
 */
@NullMarked
package dev.objlog.spring.aot;

import org.jspecify.annotations.NullMarked;
