package dev.objlog.spring.core;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and keys of the {@code objlog.template} observation; implement it to replace them.
 *
 * <p>Thread-safety: implementations are called by every sending thread at once, so must be safe
 * for concurrent use.
 */
public interface ObjlogTemplateObservationConvention extends ObservationConvention<ObjlogTemplateSenderContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof ObjlogTemplateSenderContext;
  }
}
