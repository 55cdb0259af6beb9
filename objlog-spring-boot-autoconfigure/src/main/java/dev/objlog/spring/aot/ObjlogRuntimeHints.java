package dev.objlog.spring.aot;

import dev.objlog.spring.actuate.console.ConsoleAsset;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;

/**
 * What objlog's own code loads or calls reflectively, for a native image:
 *
 * <ul>
 *   <li>the JDBC checkpoint repository's schema scripts, which {@code CheckpointSchemaInitializer}
 *       loads from the class path by platform at startup;
 *   <li>the console's static files ({@code ConsoleAsset} serves them from the class path);
 *   <li>with google-cloud-storage present, the {@code getObject()} method of the client's upload
 *       channels, which {@code GcsUpload} calls reflectively to learn the generation of the object
 *       it created (without the hint the call fails and the upload falls back to one metadata
 *       request, so the hint saves a request, it does not decide correctness).
 * </ul>
 *
 * <p>The bucket documents (checkpoints, leases, catalogs, policies) are read and written with
 * jackson-core's streaming parser and generator, which need no hints. Registered in {@code
 * META-INF/spring/aot.factories}.
 *
 * <p>Thread-safety: stateless.
 */
public final class ObjlogRuntimeHints implements RuntimeHintsRegistrar {

  /** The schema scripts, one per platform ({@code objlog.checkpoint.jdbc.schema}'s default). */
  static final String CHECKPOINT_SCHEMAS = "dev/objlog/spring/listener/checkpoint/schema-*.sql";

  /** The console page's HTML, CSS and JavaScript. */
  static final String CONSOLE_ASSETS = ConsoleAsset.FOLDER + "*";

  /** The google-cloud-storage class that declares the public {@code getObject()} (2.x clients). */
  static final String GCS_WRITE_CHANNEL = "com.google.cloud.storage.BaseStorageWriteChannel";

  /** Its subclasses that {@code Storage.writer(..)} returns (JSON and gRPC transports). */
  static final List<String> GCS_WRITE_CHANNEL_CLASSES = List.of(
      "com.google.cloud.storage.BlobWriteChannelV2", "com.google.cloud.storage.GrpcBlobWriteChannel");

  @Override
  public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
    hints.resources().registerPattern(CHECKPOINT_SCHEMAS);
    hints.resources().registerPattern(CONSOLE_ASSETS);
    if (ClassUtils.isPresent(GCS_WRITE_CHANNEL, classLoader)) {
      hints.reflection().registerType(TypeReference.of(GCS_WRITE_CHANNEL),
          type -> type.withMethod("getObject", List.of(), ExecutableMode.INVOKE));
      for (String channel : GCS_WRITE_CHANNEL_CLASSES) {
        // GcsUpload looks the method up on the concrete class (getClass().getMethod(..)); a
        // registered type answers such queries.
        hints.reflection().registerType(TypeReference.of(channel));
      }
    }
  }
}
