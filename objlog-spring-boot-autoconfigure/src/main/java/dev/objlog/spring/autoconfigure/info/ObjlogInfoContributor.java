package dev.objlog.spring.autoconfigure.info;

import dev.objlog.format.catalog.CatalogFormat;
import dev.objlog.format.segment.SegmentFormat;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.store.ObjectStore;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

/**
 * Adds an {@code objlog} entry to the actuator's {@code info} endpoint: the storage format
 * versions this build reads and writes, the store (type and description, never credentials), and
 * the configured streams by name with their stream ids and partition counts.
 *
 * <pre>
 * "objlog": {
 *   "formats": {"segformat": 2, "catformat": 1, "keyLayout": 1},
 *   "store": {"type": "s3", "description": "s3://bucket (...)", "prefix": "objlog"},
 *   "streams": {"orders": {"streamId": "orders/events", "partitions": 4}}
 * }
 * </pre>
 *
 * <p>Thread-safety: safe for concurrent use; it reads configuration fixed at startup.
 */
public final class ObjlogInfoContributor implements InfoContributor {

  /** The key layout version (key layout v1, FORMAT.md); the engine names it in Javadoc only. */
  static final int KEY_LAYOUT_VERSION = 1;

  private final ObjlogProperties properties;
  private final ObjectProvider<ObjectStore> store;

  /**
   * @param properties the bound {@code objlog.*} properties
   * @param store the application's object store, resolved when info is asked for
   */
  public ObjlogInfoContributor(ObjlogProperties properties, ObjectProvider<ObjectStore> store) {
    this.properties = Objects.requireNonNull(properties, "properties");
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public void contribute(Info.Builder builder) {
    Map<String, Object> formats = new LinkedHashMap<>();
    formats.put("segformat", SegmentFormat.VERSION);
    formats.put("catformat", CatalogFormat.VERSION);
    formats.put("keyLayout", KEY_LAYOUT_VERSION);

    Map<String, Object> storeDetails = new LinkedHashMap<>();
    ObjectStore objectStore = store.getIfUnique();
    storeDetails.put("type", objectStore == null ? configuredType() : typeOf(objectStore));
    if (objectStore != null) {
      storeDetails.put("description", objectStore.describe());
    }
    storeDetails.put("prefix", properties.getStore().getPrefix());

    Map<String, Object> streams = new LinkedHashMap<>();
    properties.getStreams().forEach((name, stream) -> {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("streamId", properties.streamId(name));
      details.put("partitions", stream.getPartitions());
      streams.put(name, details);
    });

    Map<String, Object> objlog = new LinkedHashMap<>();
    objlog.put("formats", formats);
    objlog.put("store", storeDetails);
    objlog.put("streams", streams);
    builder.withDetail("objlog", objlog);
  }

  private String configuredType() {
    ObjlogProperties.Store store = properties.getStore();
    if (store.getType() != null) {
      return store.getType().name().toLowerCase(Locale.ROOT);
    }
    // Unset means the filesystem default only when no bucket or container names a cloud store.
    boolean named = store.getBucket() != null && !store.getBucket().isBlank()
        || store.getContainer() != null && !store.getContainer().isBlank();
    return named ? "unset" : "filesystem";
  }

  /** By class name, so that no provider SDK class is loaded to answer. */
  private static String typeOf(ObjectStore store) {
    return switch (store.getClass().getName()) {
      case "dev.objlog.store.filesystem.FilesystemObjectStore" -> "filesystem";
      case "dev.objlog.store.memory.MemoryObjectStore" -> "memory";
      case "dev.objlog.store.s3.S3ObjectStore" -> "s3";
      case "dev.objlog.store.gcs.GcsObjectStore" -> "gcs";
      case "dev.objlog.store.azure.AzureBlobObjectStore" -> "azure";
      default -> "custom";
    };
  }
}
