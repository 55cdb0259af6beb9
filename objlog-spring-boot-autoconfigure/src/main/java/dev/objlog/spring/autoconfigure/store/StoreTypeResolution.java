package dev.objlog.spring.autoconfigure.store;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import dev.objlog.spring.autoconfigure.ObjlogProperties.StoreType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Which store type {@code objlog.store.*} means, decided once from the environment and the
 * classpath, so that the store configurations' conditions and the explanation of a failure agree:
 *
 * <ul>
 *   <li>{@code objlog.store.type} set: that type;
 *   <li>unset, with neither {@code bucket} nor {@code container}: {@code filesystem}, the embedded
 *       default (the sample app's run with no configuration);
 *   <li>unset, with a bucket or a container: the one provider whose SDK is on the classpath and
 *       which uses that setting ({@code s3} and {@code gcs} a bucket, {@code azure} a container);
 *       with none or several such providers there is no type, and {@link #failure()} says why.
 * </ul>
 *
 * <p>Thread-safety: immutable.
 *
 * @param type the store type, or null when it cannot be decided
 * @param inferred whether the type was chosen from the classpath rather than configured
 * @param failure why there is no type (null when there is one, or when the type property does not
 *     bind: property binding then reports that)
 */
record StoreTypeResolution(@Nullable StoreType type, boolean inferred, @Nullable ObjlogConfigurationException failure) {
  static final String TYPE = "objlog.store.type";

  /** A provider SDK: its store type, the class that proves it is present, and its artifact. */
  enum Sdk {
    S3(StoreType.S3, "software.amazon.awssdk.services.s3.S3Client", "software.amazon.awssdk:s3", false),
    GCS(StoreType.GCS, "com.google.cloud.storage.Storage", "com.google.cloud:google-cloud-storage", false),
    AZURE(StoreType.AZURE, "com.azure.storage.blob.BlobServiceClient", "com.azure:azure-storage-blob", true);

    final StoreType type;
    final String probeClass;
    final String artifact;
    final boolean usesContainer;

    Sdk(StoreType type, String probeClass, String artifact, boolean usesContainer) {
      this.type = type;
      this.probeClass = probeClass;
      this.artifact = artifact;
      this.usesContainer = usesContainer;
    }

    String typeName() {
      return type.name().toLowerCase(Locale.ROOT);
    }

    static @Nullable Sdk of(StoreType type) {
      for (Sdk sdk : values()) {
        if (sdk.type == type) {
          return sdk;
        }
      }
      return null;
    }
  }

  static StoreTypeResolution resolve(Environment environment, @Nullable ClassLoader classLoader) {
    Binder binder = Binder.get(environment);
    StoreType configured;
    try {
      configured = binder.bind(TYPE, StoreType.class).orElse(null);
    } catch (BindException e) {
      return new StoreTypeResolution(null, false, null);
    }
    String bucket = binder.bind("objlog.store.bucket", String.class).orElse("");
    String container = binder.bind("objlog.store.container", String.class).orElse("");
    return resolve(configured, !bucket.isBlank(), !container.isBlank(),
        sdk -> ClassUtils.isPresent(sdk.probeClass, classLoader));
  }

  static StoreTypeResolution resolve(@Nullable StoreType configured, boolean hasBucket, boolean hasContainer,
      Predicate<Sdk> present) {
    if (configured != null) {
      return new StoreTypeResolution(configured, false, null);
    }
    if (!hasBucket && !hasContainer) {
      return new StoreTypeResolution(StoreType.FILESYSTEM, false, null);
    }
    List<Sdk> found = new ArrayList<>();
    List<Sdk> fitting = new ArrayList<>();
    for (Sdk sdk : Sdk.values()) {
      if (present.test(sdk)) {
        found.add(sdk);
        if (sdk.usesContainer ? hasContainer : hasBucket) {
          fitting.add(sdk);
        }
      }
    }
    if (fitting.size() == 1) {
      return new StoreTypeResolution(fitting.get(0).type, true, null);
    }
    String given = hasBucket && hasContainer ? "objlog.store.bucket and objlog.store.container are"
        : hasBucket ? "objlog.store.bucket is" : "objlog.store.container is";
    String sdks = found.isEmpty() ? "none of the provider SDKs is on the classpath"
        : "the provider SDKs on the classpath are " + describe(found);
    String problem;
    if (fitting.isEmpty()) {
      problem = given + " set but objlog.store.type is not, and " + sdks + ", so no store type fits"
          + (hasBucket ? " (a bucket is for s3 or gcs" : " (a container is for azure")
          + "). objlog does not fall back to the filesystem store when a bucket is named.";
    } else {
      problem = given + " set but objlog.store.type is not, and " + sdks + ", so the store type is ambiguous.";
    }
    return new StoreTypeResolution(null, false, new ObjlogConfigurationException(TYPE, problem,
        "Set objlog.store.type to s3, gcs or azure (adding software.amazon.awssdk:s3,"
            + " com.google.cloud:google-cloud-storage or com.azure:azure-storage-blob), or to filesystem"
            + " or memory and remove the bucket and container."));
  }

  private static String describe(List<Sdk> sdks) {
    List<String> names = new ArrayList<>();
    for (Sdk sdk : sdks) {
      names.add(sdk.artifact + " (" + sdk.typeName() + ")");
    }
    return String.join(", ", names);
  }
}
