package dev.objlog.store.azure;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.Block;
import com.azure.storage.blob.models.BlockListType;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the Azure store does beyond the shared contract, against Azurite. */
class AzureBlobObjectStoreAzuriteBehaviourTests {
  private static final int BLOCK_SIZE = 64 * 1024;
  private static final String CONTAINER = "behaviour";
  private static final RetryPolicy QUICK =
      new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(10), 0, Duration.ofSeconds(30));

  private static AzuriteProcess azurite;
  private static BlobContainerClient sdk;
  private static AzureBlobObjectStore store;

  @BeforeAll
  static void startAzurite() throws Exception {
    if (!AzuriteProcess.installed()) {
      return;
    }
    azurite = AzuriteProcess.start();
    sdk = serviceClient(null).createBlobContainer(CONTAINER);
    store = builder().build();
  }

  @BeforeEach
  void requireAzurite() {
    AzuriteProcess.assumeInstalled();
  }

  @AfterAll
  static void stopAzurite() throws Exception {
    if (store != null) {
      store.close();
    }
    if (azurite != null) {
      azurite.close();
    }
  }

  private static AzureBlobObjectStore.Builder builder() {
    return AzureBlobObjectStore.builder()
        .endpoint(azurite.endpoint())
        .sharedKey(AzuriteProcess.ACCOUNT, AzuriteProcess.KEY)
        .containerName(CONTAINER)
        .blockSize(BLOCK_SIZE)
        .retryPolicy(QUICK);
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

  private static String fresh(String name) {
    return "behaviour/" + UUID.randomUUID() + "/" + name;
  }

  private static List<String> messagesOf(Throwable error) {
    List<String> texts = new ArrayList<>();
    for (Throwable t = error; t != null; t = t.getCause()) {
      texts.add(String.valueOf(t.getMessage()));
      texts.add(t.toString());
      for (Throwable s : t.getSuppressed()) {
        texts.add(s.toString());
      }
    }
    return texts;
  }

  @Test
  void aMissingContainerIsAPermanentErrorThatNamesIt() {
    try (AzureBlobObjectStore missing = builder().containerName("no-such-container").build()) {
      for (Runnable request :
          List.<Runnable>of(
              () -> missing.putIfAbsent("k", new byte[] {1}),
              () -> missing.get("k"),
              () -> missing.head("k"),
              () -> missing.list("", 10),
              () -> missing.delete(List.of("a", "b")))) {
        assertThatThrownBy(request::run)
            .isInstanceOf(PermanentStoreException.class)
            .hasMessageContaining("container no-such-container does not exist");
      }
    }
  }

  @Test
  void aWrongKeyIsRefusedAndNoKeyAppearsInAnyMessage() {
    String wrongKey = Base64.getEncoder().encodeToString("not the key of devstoreaccount1 at all".getBytes(UTF_8));
    try (AzureBlobObjectStore wrong =
        AzureBlobObjectStore.builder()
            .endpoint(azurite.endpoint())
            .sharedKey(AzuriteProcess.ACCOUNT, wrongKey)
            .containerName(CONTAINER)
            .retryPolicy(QUICK)
            .build()) {
      Throwable error = catchAny(() -> wrong.putIfAbsent(fresh("k"), new byte[] {1}));
      assertThat(error).isInstanceOf(PermanentStoreException.class).hasMessageContaining("403");
      List<String> texts = messagesOf(error);
      texts.add(wrong.describe());
      texts.add(wrong.toString());
      assertThat(texts).noneMatch(t -> t.contains(wrongKey) || t.contains(AzuriteProcess.KEY));
    }
  }

  @Test
  void aConnectionStringConfiguresTheStoreAndIsNeverShown() {
    String connection =
        "DefaultEndpointsProtocol=http;AccountName=" + AzuriteProcess.ACCOUNT + ";AccountKey=" + AzuriteProcess.KEY
            + ";BlobEndpoint=" + azurite.endpoint() + ";";
    AzureBlobObjectStore.Builder builder =
        AzureBlobObjectStore.builder().connectionString(connection).containerName(CONTAINER).retryPolicy(QUICK);
    assertThat(builder.toString()).doesNotContain(AzuriteProcess.KEY);
    try (AzureBlobObjectStore viaConnectionString = builder.build()) {
      String key = fresh("via-connection-string");
      assertThat(viaConnectionString.putIfAbsent(key, "x".getBytes(UTF_8)).created()).isTrue();
      assertThat(store.get(key).bytes()).isEqualTo("x".getBytes(UTF_8));
      assertThat(viaConnectionString.describe())
          .contains(CONTAINER)
          .contains("127.0.0.1:" + azurite.port())
          .doesNotContain(AzuriteProcess.KEY);
      assertThat(viaConnectionString.toString()).doesNotContain(AzuriteProcess.KEY);
    }
  }

  @Test
  void aMalformedConnectionStringIsRejectedWithoutQuotingIt() {
    String secret = "U2VjcmV0S2V5VGhhdE11c3ROb3RMZWFr";
    assertThatThrownBy(
            () ->
                AzureBlobObjectStore.builder()
                    .connectionString("AccountKey=" + secret + ";this is not a connection string")
                    .containerName(CONTAINER)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("connection string is not valid")
        .satisfies(e -> assertThat(messagesOf(e)).noneMatch(t -> t.contains(secret)));
  }

  @Test
  void anExistingClientIsUsedAsGiven() {
    AzureBlobObjectStore reusing = AzureBlobObjectStore.builder().containerClient(sdk).retryPolicy(QUICK).build();
    String key = fresh("reused");
    assertThat(reusing.putIfAbsent(key, new byte[] {7}).created()).isTrue();
    reusing.close();
    // Closing the store leaves the caller's client working.
    assertThat(sdk.getBlobClient(key).exists()).isTrue();
  }

  @Test
  void contentTypeFollowsTheKeyOnEveryWritePath() {
    String json = fresh("head.json");
    String bin = fresh("segment");
    String bigJson = fresh("big.json");
    store.putIfAbsent(json, "{}".getBytes(UTF_8));
    store.putIfAbsent(bin, new byte[] {1, 2});
    try (ObjectUpload upload = store.startUpload(bigJson)) {
      upload.write(new byte[3 * BLOCK_SIZE]);
      assertThat(upload.complete().created()).isTrue();
    }
    assertThat(sdk.getBlobClient(json).getProperties().getContentType()).isEqualTo("application/json");
    assertThat(sdk.getBlobClient(bin).getProperties().getContentType()).isEqualTo("application/octet-stream");
    assertThat(sdk.getBlobClient(bigJson).getProperties().getContentType()).isEqualTo("application/json");
  }

  @Test
  void uploadsAroundTheBlockSizeKeepEveryByteAndStageWholeBlocks() {
    int[] sizes = {0, 1, BLOCK_SIZE - 1, BLOCK_SIZE, BLOCK_SIZE + 1, 2 * BLOCK_SIZE, 2 * BLOCK_SIZE + 1, 5 * BLOCK_SIZE + 3};
    for (int size : sizes) {
      byte[] body = new byte[size];
      new Random(size).nextBytes(body);
      String key = fresh("size-" + size);
      try (ObjectUpload upload = store.startUpload(key)) {
        for (int pos = 0; pos < size; pos += 1000) {
          upload.write(body, pos, Math.min(1000, size - pos));
        }
        assertThat(upload.complete().created()).as("size %d", size).isTrue();
      }
      assertThat(store.get(key).bytes()).as("size %d", size).isEqualTo(body);
      List<Block> blocks = sdk.getBlobClient(key).getBlockBlobClient().listBlocks(BlockListType.COMMITTED).getCommittedBlocks();
      if (size <= BLOCK_SIZE) {
        // One Put Blob: nothing staged.
        assertThat(blocks).as("blocks of size %d", size).isEmpty();
      } else {
        assertThat(blocks).as("blocks of size %d", size).hasSize((size + BLOCK_SIZE - 1) / BLOCK_SIZE);
        assertThat(blocks.stream().map(Block::getName).map(String::length).distinct()).hasSize(1);
        assertThat(blocks.subList(0, blocks.size() - 1)).allMatch(b -> b.getSizeLong() == BLOCK_SIZE);
      }
    }
  }

  @Test
  void racingStagedUploadsOfOneKeyHaveOneWinner() {
    String key = fresh("raced-upload");
    byte[] first = new byte[5 * BLOCK_SIZE / 2];
    byte[] second = new byte[5 * BLOCK_SIZE / 2];
    new Random(1).nextBytes(first);
    new Random(2).nextBytes(second);
    try (ObjectUpload a = store.startUpload(key);
        ObjectUpload b = store.startUpload(key)) {
      a.write(first);
      b.write(second);
      assertThat(a.complete()).isInstanceOf(CreateResult.Created.class);
      assertThat(b.complete()).isInstanceOf(CreateResult.AlreadyExists.class);
    }
    assertThat(store.get(key).bytes()).isEqualTo(first);
  }

  @Test
  void pagingOnwardsCostsOneListRequestPerPage() {
    AtomicInteger listRequests = new AtomicInteger();
    HttpPipelinePolicy counter =
        (context, next) -> {
          String query = context.getHttpRequest().getUrl().getQuery();
          if (query != null && query.contains("comp=list")) {
            listRequests.incrementAndGet();
          }
          return next.process();
        };
    String prefix = fresh("paged/");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      keys.add(prefix + String.format("%03d", i));
    }
    store.delete(List.of());
    for (String k : keys) {
      store.putIfAbsent(k, new byte[] {1});
    }
    try (AzureBlobObjectStore counted =
        AzureBlobObjectStore.builder()
            .serviceClient(serviceClient(counter))
            .containerName(CONTAINER)
            .retryPolicy(QUICK)
            .build()) {
      List<String> listed = new ArrayList<>();
      String after = "";
      int pages = 0;
      while (true) {
        ListPage page = counted.list(prefix, after, 7);
        pages++;
        page.entries().stream().map(ObjectMetadata::key).forEach(listed::add);
        if (!page.hasMore()) {
          break;
        }
        after = page.nextAfterKey();
      }
      assertThat(listed).isEqualTo(keys);
      assertThat(pages).isEqualTo(6);
      assertThat(listRequests.get()).as("list requests for %d pages", pages).isEqualTo(pages);

      // A position the store never handed out still lists correctly (startFrom or a scan).
      ListPage fromScratch = counted.list(prefix, keys.get(22) + "-", 3);
      assertThat(fromScratch.entries()).extracting(ObjectMetadata::key).containsExactlyElementsOf(keys.subList(23, 26));
    }
  }

  @Test
  void deletingManyKeysRunsInParallelAndToleratesMissingOnes() {
    String prefix = fresh("many/");
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      keys.add(prefix + i);
      store.putIfAbsent(prefix + i, new byte[] {(byte) i});
    }
    List<String> doomed = new ArrayList<>(keys);
    doomed.add(prefix + "never-there");
    doomed.add(prefix + "0");
    store.delete(doomed);
    assertThat(store.list(prefix, 100).entries()).isEmpty();
  }

  @Test
  void anAbortedStagedUploadLeavesNothingVisible() {
    String key = fresh("aborted");
    ObjectUpload upload = store.startUpload(key);
    upload.write(new byte[3 * BLOCK_SIZE + 1]);
    upload.abort();
    assertThat(store.head(key)).isEmpty();
    assertThatThrownBy(() -> upload.write(new byte[1])).isInstanceOf(IllegalStateException.class);
    assertThat(Arrays.asList(store.putIfAbsent(key, new byte[] {1}).created())).containsExactly(true);
  }

  private static Throwable catchAny(Runnable r) {
    try {
      r.run();
    } catch (Throwable t) {
      return t;
    }
    throw new AssertionError("expected a failure");
  }
}
