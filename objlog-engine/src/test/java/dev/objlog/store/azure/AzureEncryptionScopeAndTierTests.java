package dev.objlog.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.objlog.store.EveryWriteKind;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * An encryption scope and the segment access tier reach Azure on every write: Put Blob
 * (create-only and compare-and-swap), every Put Block of a staged upload and its Put Block List.
 * Captured at the HTTP layer by a pipeline policy in the per-call position, which sees each
 * request as the store built it. Azurite accepts the scope header (it does not encrypt) and stores
 * the access tier, so every write also succeeds end to end.
 */
class AzureEncryptionScopeAndTierTests {
  private static final String CONTAINER = "encryption";
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final String SCOPE = "objlog-scope";

  private static AzuriteProcess azurite;
  private final String prefix = "enc/" + UUID.randomUUID() + "/";

  /** One request as the store built it. */
  record Sent(String method, String query, Optional<String> scope, Optional<String> tier) {
    String operation() {
      if (query.contains("comp=block&")) {
        return "Put Block";
      }
      if (query.contains("comp=blocklist")) {
        return "Put Block List";
      }
      return method.equals("PUT") && query.isEmpty() ? "Put Blob" : method + " " + query;
    }

    boolean isWrite() {
      return method.equals("PUT");
    }
  }

  static final class Capture implements HttpPipelinePolicy {
    final List<Sent> sent = new CopyOnWriteArrayList<>();

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      var request = context.getHttpRequest();
      String query = Optional.ofNullable(request.getUrl().getQuery()).orElse("");
      sent.add(new Sent(
          request.getHttpMethod().name(),
          query,
          Optional.ofNullable(request.getHeaders().getValue("x-ms-encryption-scope")),
          Optional.ofNullable(request.getHeaders().getValue("x-ms-access-tier"))));
      return next.process();
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
      return HttpPipelinePosition.PER_CALL;
    }

    List<Sent> writes() {
      return sent.stream().filter(Sent::isWrite).toList();
    }
  }

  @BeforeAll
  static void startAzurite() throws Exception {
    if (!AzuriteProcess.installed()) {
      return;
    }
    azurite = AzuriteProcess.start();
    serviceClient(null).createBlobContainer(CONTAINER);
  }

  @BeforeEach
  void requireAzurite() {
    AzuriteProcess.assumeInstalled();
  }

  @AfterAll
  static void stopAzurite() throws Exception {
    if (azurite != null) {
      azurite.close();
    }
  }

  private static BlobServiceClient serviceClient(HttpPipelinePolicy policy) {
    BlobServiceClientBuilder b =
        new BlobServiceClientBuilder()
            .endpoint(azurite.endpoint())
            .credential(new StorageSharedKeyCredential(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY))
            .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, (Integer) null, null, null, null));
    if (policy != null) {
      b.addPolicy(policy);
    }
    return b.buildClient();
  }

  private AzureBlobObjectStore.Builder builder(Capture capture) {
    return AzureBlobObjectStore.builder().serviceClient(serviceClient(capture)).containerName(CONTAINER).blockSize(BLOCK_SIZE);
  }

  private void writeEveryWay(AzureBlobObjectStore store) {
    EveryWriteKind.write(store, prefix, 3 * BLOCK_SIZE - 7);
  }


  @Test
  void encryptionScopeIsOnEveryPutBlobPutBlockAndPutBlockList() {
    Capture capture = new Capture();
    try (AzureBlobObjectStore store = builder(capture).encryptionScope(SCOPE).build()) {
      writeEveryWay(store);
    }
    List<Sent> writes = capture.writes();
    assertThat(writes).extracting(Sent::operation)
        .containsExactly("Put Blob", "Put Blob", "Put Blob", "Put Block", "Put Block", "Put Block", "Put Block List");
    assertThat(writes).allSatisfy(w -> assertThat(w.scope()).contains(SCOPE));
  }

  @Test
  void segmentTierIsOnSegmentBlobsOnlyAndAzuriteStoresIt() {
    Capture capture = new Capture();
    try (AzureBlobObjectStore store = builder(capture).segmentStorageClass("cool").build()) {
      writeEveryWay(store);
    }
    List<Sent> writes = capture.writes();
    assertThat(writes).hasSize(7);
    assertThat(writes.subList(0, 2)).allSatisfy(w -> assertThat(w.tier()).isEmpty());
    assertThat(writes.get(2).tier()).contains("Cool");
    assertThat(writes.get(6).tier()).contains("Cool");
    var blobs = serviceClient(null).getBlobContainerClient(CONTAINER);
    assertThat(blobs.getBlobClient(prefix + "segments/seg-big.plseg").getProperties().getAccessTier())
        .hasToString("Cool");
    assertThat(blobs.getBlobClient(prefix + "segments/seg-small.plseg").getProperties().getAccessTier())
        .hasToString("Cool");
  }

  @Test
  void withoutSettingsNoScopeOrTierIsSent() {
    Capture capture = new Capture();
    try (AzureBlobObjectStore store = builder(capture).build()) {
      writeEveryWay(store);
    }
    assertThat(capture.writes()).hasSize(7).allSatisfy(w -> {
      assertThat(w.scope()).isEmpty();
      assertThat(w.tier()).isEmpty();
    });
  }

  @Test
  void archiveAndUnknownTiersAreRejected() {
    assertThatThrownBy(() -> AzureBlobObjectStore.builder().segmentStorageClass("Archive"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Hot, Cool, Cold");
  }
}
