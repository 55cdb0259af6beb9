/**
 * The actuator {@code info} contribution of objlog.
 *
 * <p>Owns: {@link dev.objlog.spring.autoconfigure.info.ObjlogInfoContributor} (format versions,
 * store type and description, configured streams) and its auto-configuration. Does not own:
 * health, metrics or the objlog actuator endpoint.
 *
 * <p>Invariants: never shows credentials (it shows {@code ObjectStore.describe()}, which the
 * engine keeps free of them, and no {@code objlog.store.*} secret); streams are keyed by their
 * configured name.
 *
 * <p>Error contract: contributing never fails the info endpoint; it reads configuration only.
 */
@NullMarked
package dev.objlog.spring.autoconfigure.info;

import org.jspecify.annotations.NullMarked;
