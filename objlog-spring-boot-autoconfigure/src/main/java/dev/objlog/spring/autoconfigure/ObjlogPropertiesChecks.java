package dev.objlog.spring.autoconfigure;

import dev.objlog.InvalidArgumentException;
import dev.objlog.WriterOptions;
import dev.objlog.format.segment.SegmentFormat;
import dev.objlog.spring.core.PartitionSet;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.util.unit.DataSize;

/** The store-independent checks of {@link ObjlogProperties}, each naming the property to change. */
final class ObjlogPropertiesChecks {
  private static final Pattern STREAM_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]*");
  private static final long S3_MIN_PART_SIZE = 5L * 1024 * 1024;
  private static final long GCS_CHUNK_GRANULARITY = 256L * 1024;
  private static final long AZURE_MAX_BLOCK_SIZE = 4000L * 1024 * 1024;

  private ObjlogPropertiesChecks() {}

  static void check(ObjlogProperties properties) {
    checkStreams(properties);
    checkDefaults(properties.getDefaults());
    checkSizes(properties.getStore());
    checkReader(properties.getReader());
    checkHealth(properties.getHealth());
    properties.getMemory().toMemoryBudget(); // throws naming objlog.memory.budget
  }

  private static void checkStreams(ObjlogProperties properties) {
    Map<String, String> nameById = new HashMap<>();
    for (Map.Entry<String, ObjlogProperties.Stream> entry : properties.getStreams().entrySet()) {
      String name = entry.getKey();
      ObjlogProperties.Stream stream = entry.getValue();
      String property = "objlog.streams." + name;
      if (name.length() > ObjlogProperties.MAX_STREAM_NAME_LENGTH || !STREAM_NAME.matcher(name).matches()) {
        throw new ObjlogConfigurationException(
            "objlog.streams[" + name + "]",
            "the stream name '" + name + "' is not allowed; names appear in URLs, metric tags and bean names.",
            "Rename it to 1 to " + ObjlogProperties.MAX_STREAM_NAME_LENGTH
                + " letters, digits, '-' or '_' (starting with a letter or digit) and put the"
                + " stream id, which may contain '/', in objlog.streams.<name>.stream-id.");
      }
      String id;
      try {
        id = properties.streamId(name);
      } catch (InvalidArgumentException e) {
        boolean explicit = stream.getStreamId() != null && !stream.getStreamId().isEmpty();
        throw new ObjlogConfigurationException(
            property + ".stream-id",
            (explicit ? "" : "the stream id defaults to the name '" + name + "', but ") + e.getMessage() + ".",
            "Set " + property + ".stream-id to a valid stream id such as \"orders/events\".");
      }
      int partitions = stream.getPartitions();
      if (partitions < 1 || partitions > ObjlogProperties.MAX_PARTITIONS) {
        throw new ObjlogConfigurationException(
            property + ".partitions",
            "the stream has " + partitions + " partitions; a stream has 1 to "
                + ObjlogProperties.MAX_PARTITIONS + ".",
            "Set " + property + ".partitions to a number from 1 to " + ObjlogProperties.MAX_PARTITIONS
                + "; it must stay the same for the life of the stream.");
      }
      checkWriter(property + ".writer", stream.getWriter(), partitions);
      checkRetention(property + ".retention", stream.getRetention());
      String other = nameById.putIfAbsent(id, name);
      if (other != null) {
        throw new ObjlogConfigurationException(
            property + ".stream-id",
            "the streams '" + other + "' and '" + name + "' both have the stream id \"" + id
                + "\"; two names for one stream would fence each other's writers.",
            "Give each of objlog.streams." + other + " and " + property
                + " its own stream-id, or remove one of them.");
      }
    }
  }

  private static void checkDefaults(ObjlogProperties.Defaults defaults) {
    Integer partitions = defaults.getPartitions();
    if (partitions != null && (partitions < 1 || partitions > ObjlogProperties.MAX_PARTITIONS)) {
      throw new ObjlogConfigurationException(
          "objlog.defaults.partitions",
          "auto-created streams would have " + partitions + " partitions; a stream has 1 to "
              + ObjlogProperties.MAX_PARTITIONS + ".",
          "Set objlog.defaults.partitions to a number from 1 to " + ObjlogProperties.MAX_PARTITIONS
              + ", or unset it to take each stream's recorded count.");
    }
    // Without a count, writer partitions are checked against the largest possible stream.
    checkWriter("objlog.defaults.writer", defaults.getWriter(),
        partitions == null ? ObjlogProperties.MAX_PARTITIONS : partitions);
  }

  private static void checkRetention(String property, ObjlogProperties.Retention retention) {
    if (retention.getMaxAge() != null && (retention.getMaxAge().isNegative() || retention.getMaxAge().isZero())) {
      throw new ObjlogConfigurationException(property + ".max-age",
          "the maximum age " + retention.getMaxAge() + " is not positive.",
          "Set " + property + ".max-age to a positive duration such as 7d, or remove it to keep records of any age.");
    }
    if (retention.getMaxRecords() != null && retention.getMaxRecords() < 0) {
      throw new ObjlogConfigurationException(property + ".max-records",
          "the maximum record count " + retention.getMaxRecords() + " is negative.",
          "Set " + property + ".max-records to 0 or more, or remove it to keep any number of records.");
    }
    for (String group : retention.getConsumerGroups()) {
      if (group == null || group.isBlank()) {
        throw new ObjlogConfigurationException(property + ".consumer-groups",
            "a consumer group name is empty.", "Remove the empty entry from " + property + ".consumer-groups.");
      }
    }
    ObjlogProperties.UntilConsumed u = retention.getUntilConsumed();
    String until = property + ".until-consumed";
    if (u.getKeepRecords() < 0) {
      throw new ObjlogConfigurationException(until + ".keep-records",
          "the keep window " + u.getKeepRecords() + " is negative.",
          "Set " + until + ".keep-records to 0 (trim all that is consumed) or more.");
    }
    if (u.getExpireAfter() != null && (u.getExpireAfter().isNegative() || u.getExpireAfter().isZero())) {
      throw new ObjlogConfigurationException(until + ".expire-after",
          "the expiry " + u.getExpireAfter() + " is not positive.",
          "Set " + until + ".expire-after to a positive duration such as 7d, or remove it to wait for silent consumers forever.");
    }
    if (u.getWarnAfter() == null || u.getWarnAfter().isNegative()) {
      throw new ObjlogConfigurationException(until + ".warn-after",
          "the warning delay " + u.getWarnAfter() + " is negative.",
          "Set " + until + ".warn-after to 0 or a positive duration such as 15m.");
    }
  }

  private static void checkWriter(String property, ObjlogProperties.Writer writer, int partitions) {
    try {
      PartitionSet.parse(writer.getPartitions(), partitions);
    } catch (InvalidArgumentException e) {
      throw new ObjlogConfigurationException(
          property + ".partitions",
          "the writer partitions \"" + writer.getPartitions() + "\" cannot be used: " + e.getMessage() + ".",
          "Set " + property + ".partitions to \"*\" (all partitions) or to partitions and ranges from 0 to "
              + (partitions - 1) + ", such as \"0-" + (partitions - 1) + "\".");
    }
    check(property + ".batch", () -> new WriterOptions.BatchPolicy(writer.getBatch().getMaxDelay(),
        writer.getBatch().getMaxSize().toBytes(), writer.getBatch().getMaxRecords()));
    checkMaxRecordSize(property + ".backpressure.max-record-size", writer.getBackpressure().getMaxRecordSize());
    check(property + ".backpressure", writer.getBackpressure()::toBackpressurePolicy);
    check(property + ".adaptive-delay", () -> new WriterOptions.AdaptiveDelay(writer.getAdaptiveDelay().isEnabled(),
        writer.getAdaptiveDelay().getMin(), writer.getAdaptiveDelay().getMax(),
        writer.getAdaptiveDelay().getMultiplier()));
    check(property + ".timeouts", () -> new WriterOptions.Timeouts(writer.getTimeouts().getSegmentFinalize(),
        writer.getTimeouts().getCatalogPublish()));
    ObjlogProperties.WriterLease lease = writer.getLease();
    if (lease.isEnabled()) {
      try {
        lease.toSettings();
      } catch (IllegalArgumentException e) {
        throw new ObjlogConfigurationException(property + ".lease",
            "the writer lease settings cannot be used: " + e.getMessage() + ".",
            "Set " + property + ".lease.ttl to a positive duration such as 30s, and " + property
                + ".lease.renew-interval (if set) to a shorter one such as 10s.");
      }
    }
  }

  private static void checkMaxRecordSize(String property, @Nullable DataSize size) {
    long min = SegmentFormat.RECORD_ENVELOPE_SIZE;
    long max = WriterOptions.BackpressurePolicy.FORMAT_MAX_RECORD_BYTES;
    if (size != null && (size.toBytes() < min || size.toBytes() > max)) {
      throw new ObjlogConfigurationException(property,
          "the largest record " + size + " is outside " + min + "B to " + max + "B, the encoded sizes of the"
              + " records the format admits (" + min + " bytes of envelope, up to 256KB of headers and 4MB of value).",
          "Set " + property + " to a size from " + min + "B to " + max + "B, such as 64KB, or remove it to accept"
              + " the format's largest record.");
    }
  }

  private static void check(String property, Runnable build) {
    try {
      build.run();
    } catch (InvalidArgumentException e) {
      throw new ObjlogConfigurationException(
          property,
          "the settings under " + property + " cannot be used: " + e.getMessage() + ".",
          "Change the value under " + property + " that the message names; docs/SPRING.md lists the defaults.");
    }
  }

  private static void checkReader(ObjlogProperties.Reader reader) {
    check("objlog.reader", reader::toReaderOptions);
  }

  private static void checkHealth(ObjlogProperties.Health health) {
    if (health.getStoreUnreachableThreshold().isNegative() || health.getStoreUnreachableThreshold().isZero()) {
      throw new ObjlogConfigurationException(
          "objlog.health.store-unreachable-threshold",
          "the threshold " + health.getStoreUnreachableThreshold() + " is not positive.",
          "Set objlog.health.store-unreachable-threshold to a positive duration such as 1m (the default).");
    }
    if (health.getProbeInterval().isNegative()) {
      throw new ObjlogConfigurationException(
          "objlog.health.probe-interval",
          "the probe interval " + health.getProbeInterval() + " is negative.",
          "Set objlog.health.probe-interval to a positive duration such as 30s (the default), or 0 to turn the probe off.");
    }
  }

  private static void checkSizes(ObjlogProperties.Store store) {
    long part = store.getS3().getPartSize().toBytes();
    if (part < S3_MIN_PART_SIZE || part > Integer.MAX_VALUE) {
      throw new ObjlogConfigurationException(
          "objlog.store.s3.part-size",
          "the part size " + store.getS3().getPartSize() + " is outside 5MB (S3's minimum) to 2047MB.",
          "Set objlog.store.s3.part-size to a size from 5MB to 2047MB, e.g. 8MB (the default).");
    }
    DataSize chunk = store.getGcs().getUploadChunkSize();
    if (chunk.toBytes() < GCS_CHUNK_GRANULARITY
        || chunk.toBytes() % GCS_CHUNK_GRANULARITY != 0
        || chunk.toBytes() > Integer.MAX_VALUE) {
      throw new ObjlogConfigurationException(
          "objlog.store.gcs.upload-chunk-size",
          "the upload chunk size " + chunk + " is not a positive multiple of 256KB below 2GB.",
          "Set objlog.store.gcs.upload-chunk-size to a multiple of 256KB, e.g. 8MB (the default).");
    }
    DataSize block = store.getAzure().getBlockSize();
    if (block.toBytes() < 1 || block.toBytes() > Math.min(AZURE_MAX_BLOCK_SIZE, Integer.MAX_VALUE)) {
      throw new ObjlogConfigurationException(
          "objlog.store.azure.block-size",
          "the block size " + block + " is outside 1B to 2047MB.",
          "Set objlog.store.azure.block-size to a size from 1B to 2047MB, e.g. 8MB (the default).");
    }
  }
}
