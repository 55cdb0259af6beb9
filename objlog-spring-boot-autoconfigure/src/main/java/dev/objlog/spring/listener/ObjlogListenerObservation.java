package dev.objlog.spring.listener;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of one listener invocation, {@code objlog.listener}. Low-cardinality keys:
 * {@code objlog.listener.id}, {@code objlog.stream}; high-cardinality: {@code objlog.partition}
 * and {@code objlog.lsn} (the first record's LSN). Its context is a receiver context that continues
 * the trace the sending {@code objlog.template} observation wrote into the record's headers.
 * Replace the naming and keys with an {@link
 * ObjlogListenerObservationConvention} on the container factory.
 */
public enum ObjlogListenerObservation implements ObservationDocumentation {
  LISTENER_OBSERVATION {
    @Override
    public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
      return DefaultObjlogListenerObservationConvention.class;
    }

    @Override
    public KeyName[] getLowCardinalityKeyNames() {
      return ListenerLowCardinalityTags.values();
    }

    @Override
    public KeyName[] getHighCardinalityKeyNames() {
      return ListenerHighCardinalityTags.values();
    }
  };

  /** Low-cardinality keys. */
  public enum ListenerLowCardinalityTags implements KeyName {
    LISTENER_ID {
      @Override
      public String asString() {
        return "objlog.listener.id";
      }
    },
    STREAM {
      @Override
      public String asString() {
        return "objlog.stream";
      }
    }
  }

  /** High-cardinality keys. */
  public enum ListenerHighCardinalityTags implements KeyName {
    PARTITION {
      @Override
      public String asString() {
        return "objlog.partition";
      }
    },
    LSN {
      @Override
      public String asString() {
        return "objlog.lsn";
      }
    }
  }
}
