package dev.objlog.spring.autoconfigure.streams;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.StreamAutoCreator;
import dev.objlog.store.StoreException;
import java.time.Clock;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The startup step that keeps each stream configured under {@code objlog.streams} from being
 * written or read with a partition count the bucket contradicts: with a count recorded at {@code
 * maintenance/stream.json} (by an instance that auto-created the stream), the configured count must
 * be that one; without a record, the partition just past the configured count must not exist. Costs
 * one GET and, without a record, one HEAD per configured stream. It never writes a record.
 *
 * <p>A contradiction stops startup with an {@link ObjlogConfigurationException} naming {@code
 * objlog.streams.<name>.partitions} and both counts. A store failure (the store unreachable) is
 * logged and left to the first real request, as the bucket check does. It runs once all singletons
 * exist, after the bucket check (whose auto-configuration comes first) and before any writer or
 * listener starts.
 *
 * <p>Thread-safety: runs once, on the thread that starts the context.
 */
final class ConfiguredStreamPartitionsCheck implements SmartInitializingSingleton {
  private static final Log logger = LogFactory.getLog(ConfiguredStreamPartitionsCheck.class);

  private final ObjectProvider<ObjlogStreams> streams;
  private final ObjlogProperties properties;

  ConfiguredStreamPartitionsCheck(ObjectProvider<ObjlogStreams> streams, ObjlogProperties properties) {
    this.streams = streams;
    this.properties = properties;
  }

  @Override
  public void afterSingletonsInstantiated() {
    ObjlogStreams all = streams.getIfUnique();
    if (all == null) {
      return;
    }
    StreamAutoCreator records = new StreamAutoCreator(all.store(), properties.getStore().getPrefix(), null,
        ObjlogProperties.MAX_PARTITIONS, Clock.systemUTC());
    for (String name : properties.getStreams().keySet()) {
      Optional<ObjlogStream> stream = all.find(name);
      if (stream.isPresent()) {
        check(records, stream.get());
      }
    }
  }

  private static void check(StreamAutoCreator records, ObjlogStream stream) {
    String property = "objlog.streams." + stream.name() + ".partitions";
    int configured = stream.partitions();
    String which = "stream '" + stream.name() + "' (stream id \"" + stream.streamId() + "\")";
    try {
      OptionalInt recorded = records.recordedPartitions(stream.streamId());
      if (recorded.isPresent()) {
        if (recorded.getAsInt() != configured) {
          throw new ObjlogConfigurationException(property,
              which + " has " + recorded.getAsInt() + " partitions recorded in the bucket at "
                  + records.recordKey(stream.streamId()) + ", but " + property + " is " + configured
                  + ". A stream's partition count never changes: with another count, keys would map to other"
                  + " partitions and listeners would miss partitions.",
              "Set " + property + " to " + recorded.getAsInt() + ".");
        }
      } else if (configured < ObjlogProperties.MAX_PARTITIONS && records.partitionExists(stream.streamId(), configured)) {
        throw new ObjlogConfigurationException(property,
            which + " has no partition count recorded in the bucket, and its partition " + configured
                + " exists, so it has more partitions than the " + configured + " of " + property
                + " (1 when unset). Listeners would never read the partitions beyond.",
            "Set " + property + " to the stream's partition count (the one its writers, for instance the Go"
                + " library's, were opened with).");
      }
    } catch (StoreException e) {
      logger.warn("objlog could not check the partition count of " + which + " against the bucket ("
          + e.getMessage() + "); startup goes on with " + property + " = " + configured);
    }
  }
}
