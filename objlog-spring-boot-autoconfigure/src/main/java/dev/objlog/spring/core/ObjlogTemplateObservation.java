package dev.objlog.spring.core;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of one {@link ObjlogTemplate} send, {@code objlog.template}: from the call until
 * the record is committed or the send failed. Opt-in ({@link ObjlogTemplate#setObservationEnabled},
 * {@code objlog.template.observation-enabled}). Low-cardinality keys: {@code objlog.stream} and
 * {@code objlog.outcome}; high-cardinality: {@code objlog.partition} and {@code objlog.lsn} (once
 * committed). Its context is an {@link ObjlogTemplateSenderContext}, so a tracer writes the trace
 * context into the record's headers. Replace names and keys with an {@link
 * ObjlogTemplateObservationConvention}.
 *
 * <p>Thread-safety: constants only.
 */
public enum ObjlogTemplateObservation implements ObservationDocumentation {
  TEMPLATE_OBSERVATION {
    @Override
    public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
      return DefaultObjlogTemplateObservationConvention.class;
    }

    @Override
    public KeyName[] getLowCardinalityKeyNames() {
      return TemplateLowCardinalityTags.values();
    }

    @Override
    public KeyName[] getHighCardinalityKeyNames() {
      return TemplateHighCardinalityTags.values();
    }
  };

  /** Low-cardinality keys: bounded by the configured streams. */
  public enum TemplateLowCardinalityTags implements KeyName {
    /** The configured stream name. */
    STREAM {
      @Override
      public String asString() {
        return "objlog.stream";
      }
    },
    /** {@code success} once committed, {@code failure} when the send threw or its future failed. */
    OUTCOME {
      @Override
      public String asString() {
        return "objlog.outcome";
      }
    }
  }

  /** High-cardinality keys: one value per partition or record, for spans only. */
  public enum TemplateHighCardinalityTags implements KeyName {
    PARTITION {
      @Override
      public String asString() {
        return "objlog.partition";
      }
    },
    /** The committed record's LSN (unsigned decimal); empty until committed. */
    LSN {
      @Override
      public String asString() {
        return "objlog.lsn";
      }
    }
  }
}
