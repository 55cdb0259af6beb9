/**
 * Spring Boot auto-configuration of objlog: the {@code objlog.*} properties and the typed error
 * that bad configuration raises at startup.
 *
 * <p>Owns: {@link dev.objlog.spring.autoconfigure.ObjlogProperties} (binding, defaults and the
 * checks that need no store) and {@link dev.objlog.spring.autoconfigure.ObjlogConfigurationException}
 * with its failure analyzer. Does not own: building stores (sub-package {@code store}), the info
 * contributor ({@code info}), Testcontainers service connections ({@code testcontainers}), or
 * anything of the engine's; this module uses the engine's public packages only.
 *
 * <p>Invariants: a stream is named in properties, APIs and URLs by its configured name ({@code
 * objlog.streams.<name>}), never by its stream id; every stream id is canonical and unique across
 * names once the properties bean is initialised.
 *
 * <p>Error contract: configuration that cannot work fails startup with an {@link
 * dev.objlog.spring.autoconfigure.ObjlogConfigurationException} that names the property and says
 * what to change; nothing here is retryable.
 */
@NullMarked
package dev.objlog.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;
