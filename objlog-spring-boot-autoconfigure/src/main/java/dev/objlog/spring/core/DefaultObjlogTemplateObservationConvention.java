package dev.objlog.spring.core;

import io.micrometer.common.KeyValues;

/**
 * The documented {@code objlog.template} names and keys ({@link ObjlogTemplateObservation}).
 *
 * <p>Thread-safety: stateless.
 */
public class DefaultObjlogTemplateObservationConvention implements ObjlogTemplateObservationConvention {
  public static final DefaultObjlogTemplateObservationConvention INSTANCE = new DefaultObjlogTemplateObservationConvention();

  @Override
  public String getName() {
    return "objlog.template";
  }

  @Override
  public String getContextualName(ObjlogTemplateSenderContext context) {
    return context.getStreamName() + " send";
  }

  @Override
  public KeyValues getLowCardinalityKeyValues(ObjlogTemplateSenderContext context) {
    return KeyValues.of(
        ObjlogTemplateObservation.TemplateLowCardinalityTags.STREAM.withValue(context.getStreamName()),
        ObjlogTemplateObservation.TemplateLowCardinalityTags.OUTCOME.withValue(
            context.getError() == null ? "success" : "failure"));
  }

  @Override
  public KeyValues getHighCardinalityKeyValues(ObjlogTemplateSenderContext context) {
    SendResult result = context.getResult();
    return KeyValues.of(
        ObjlogTemplateObservation.TemplateHighCardinalityTags.PARTITION.withValue(
            Integer.toUnsignedString(context.getPartition())),
        ObjlogTemplateObservation.TemplateHighCardinalityTags.LSN.withValue(
            result == null ? "" : Long.toUnsignedString(result.lsn())));
  }
}
