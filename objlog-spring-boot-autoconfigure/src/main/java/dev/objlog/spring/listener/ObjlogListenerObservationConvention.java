package dev.objlog.spring.listener;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/** Names and keys of the {@code objlog.listener} observation; implement it to replace them. */
public interface ObjlogListenerObservationConvention extends ObservationConvention<ObjlogListenerObservationContext> {

  @Override
  default boolean supportsContext(Observation.Context context) {
    return context instanceof ObjlogListenerObservationContext;
  }
}
