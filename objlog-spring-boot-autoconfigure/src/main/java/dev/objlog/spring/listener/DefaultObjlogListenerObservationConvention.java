package dev.objlog.spring.listener;

import io.micrometer.common.KeyValues;

/** The documented {@code objlog.listener} names and keys ({@link ObjlogListenerObservation}). */
public class DefaultObjlogListenerObservationConvention implements ObjlogListenerObservationConvention {
  public static final DefaultObjlogListenerObservationConvention INSTANCE = new DefaultObjlogListenerObservationConvention();

  @Override
  public String getName() {
    return "objlog.listener";
  }

  @Override
  public String getContextualName(ObjlogListenerObservationContext context) {
    return context.getListenerId() + " receive";
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(ObjlogListenerObservationContext context) {
    return KeyValues.of(
        ObjlogListenerObservation.ListenerLowCardinalityTags.LISTENER_ID.withValue(context.getListenerId()),
        ObjlogListenerObservation.ListenerLowCardinalityTags.STREAM.withValue(context.getStreamName()));
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(ObjlogListenerObservationContext context) {
    String lsn = context.getRecords().isEmpty() ? "" : Long.toUnsignedString(context.getRecords().get(0).lsn());
    return KeyValues.of(
        ObjlogListenerObservation.ListenerHighCardinalityTags.PARTITION.withValue(Integer.toUnsignedString(context.getPartition())),
        ObjlogListenerObservation.ListenerHighCardinalityTags.LSN.withValue(lsn));
  }
}
