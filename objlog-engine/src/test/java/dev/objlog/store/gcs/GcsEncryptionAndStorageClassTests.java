package dev.objlog.store.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import dev.objlog.store.EveryWriteKind;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A customer-managed key and the segment storage class reach GCS on every object-creating request:
 * multipart uploads (create-only and compare-and-swap) and the start of resumable uploads, which
 * is where GCS takes an object's key and metadata. Captured by our GCS test server, which records
 * each such request as received ({@link FakeGcsServer#objectWrites()}).
 */
class GcsEncryptionAndStorageClassTests {
  private static final String BUCKET = "objlog-encryption";
  private static final int CHUNK = GcsObjectStore.CHUNK_GRANULARITY;
  private static final String KEY = "projects/p/locations/europe-west1/keyRings/objlog/cryptoKeys/segments";

  private static FakeGcsServer server;
  private final String prefix = "enc/" + UUID.randomUUID() + "/";

  @BeforeAll
  static void start() throws Exception {
    server = FakeGcsServer.start();
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private GcsObjectStore.Builder builder() {
    return GcsObjectStore.builder()
        .bucket(BUCKET)
        .host(server.host())
        .projectId("test")
        .credentials(NoCredentials.getInstance())
        .uploadChunkSize(CHUNK);
  }

  /** Every kind of write (the resumable upload has three chunks); the object-creating requests they made. */
  private List<FakeGcsServer.ObjectWrite> writeEveryWay(GcsObjectStore store) {
    int before = server.objectWrites().size();
    EveryWriteKind.write(store, prefix, 3 * CHUNK - 5);
    List<FakeGcsServer.ObjectWrite> all = server.objectWrites();
    return all.subList(before, all.size()).stream().filter(w -> w.name().startsWith(prefix)).toList();
  }

  @Test
  void kmsKeyNameIsOnEveryMultipartAndResumableUpload() {
    List<FakeGcsServer.ObjectWrite> writes;
    try (GcsObjectStore store = builder().kmsKeyName(KEY).build()) {
      writes = writeEveryWay(store);
    }
    assertThat(writes).extracting(FakeGcsServer.ObjectWrite::uploadType)
        .containsExactly("multipart", "multipart", "multipart", "resumable");
    assertThat(writes).allSatisfy(w -> assertThat(w.query()).containsEntry("kmsKeyName", KEY));
  }

  @Test
  void segmentStorageClassIsInTheMetadataOfSegmentUploadsOnly() {
    List<FakeGcsServer.ObjectWrite> writes;
    try (GcsObjectStore store = builder().segmentStorageClass("nearline").build()) {
      writes = writeEveryWay(store);
    }
    assertThat(writes).hasSize(4);
    assertThat(writes.subList(0, 2)).allSatisfy(w -> assertThat(w.metadata().has("storageClass")).isFalse());
    assertThat(writes.subList(2, 4))
        .allSatisfy(w -> assertThat(w.metadata().path("storageClass").asString()).isEqualTo("NEARLINE"));
  }

  @Test
  void withoutSettingsNoKeyOrStorageClassIsSent() {
    List<FakeGcsServer.ObjectWrite> writes;
    try (GcsObjectStore store = builder().build()) {
      writes = writeEveryWay(store);
    }
    assertThat(writes).hasSize(4).allSatisfy(w -> {
      assertThat(w.query()).doesNotContainKey("kmsKeyName");
      assertThat(w.metadata().has("storageClass")).isFalse();
    });
  }

  @Test
  void malformedKeyNamesAndUnknownStorageClassesAreRejected() {
    assertThatThrownBy(() -> builder().kmsKeyName("segments-key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>");
    assertThatThrownBy(() -> builder().segmentStorageClass("GLACIER"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("STANDARD, NEARLINE, COLDLINE, ARCHIVE");
  }
}
