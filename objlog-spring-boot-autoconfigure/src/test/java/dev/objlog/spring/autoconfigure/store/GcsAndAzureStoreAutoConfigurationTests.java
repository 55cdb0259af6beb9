package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.store.EveryWriteKind;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.azure.AzureBlobObjectStore;
import dev.objlog.store.azure.AzuriteAccess;
import dev.objlog.store.gcs.FakeGcsAccess;
import dev.objlog.store.gcs.GcsObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;

/**
 * Which gcs and azure store gets built, and their configuration errors. Building a store opens no
 * connection, so these run without servers and with the startup checks (bucket, self-test) off;
 * MissingBucketTests and the engine's own tests run both stores against real protocol servers.
 * The nested classes check that the encryption and storage-class properties reach the requests
 * of the store the starter builds, captured on our GCS test server and on the way to Azurite.
 */
class GcsAndAzureStoreAutoConfigurationTests {
  /** Azurite's documented development account key. */
  private static final String AZURITE_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class))
          .withPropertyValues("objlog.store.verify-conditional-writes=false", "objlog.store.verify-bucket=false");

  @TempDir Path temp;

  @Test
  void gcsReusesTheApplicationsStorage() {
    Storage storage =
        StorageOptions.newBuilder()
            .setProjectId("objlog-test")
            .setHost("http://127.0.0.1:9")
            .setCredentials(NoCredentials.getInstance())
            .build()
            .getService();
    runner
        .withPropertyValues("objlog.store.type=gcs", "objlog.store.bucket=logs", "objlog.store.gcs.upload-chunk-size=512KB")
        .withBean(Storage.class, () -> storage)
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(ObjectStore.class);
          assertThat(context.getBean(ObjectStore.class)).isInstanceOf(GcsObjectStore.class);
          assertThat(context.getBean(ObjectStore.class).describe()).contains("logs");
        });
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "objlog.store.gcs.kms-key-name=my-key; objlog.store.gcs.kms-key-name; is not a Cloud KMS key name",
        "objlog.store.segment-storage-class=GLACIER; objlog.store.segment-storage-class; GLACIER' is not a storage class",
      })
  void gcsEncryptionAndStorageClassMistakesFailStartup(String property, String named, String says) {
    runner.withPropertyValues("objlog.store.type=gcs", "objlog.store.bucket=b", "objlog.store.gcs.host=http://127.0.0.1:9", property)
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: " + named).contains(says);
        });
  }

  @Test
  void gcsNeedsABucket() {
    runner.withPropertyValues("objlog.store.type=gcs").run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).contains("objlog.store.bucket").contains("objlog.store.type=gcs needs a bucket");
    });
  }

  @Test
  void gcsCredentialsThatCannotBeReadNameThePropertyButNotTheContent() throws Exception {
    Path key = Files.writeString(temp.resolve("key.json"), "{\"type\":\"service_account\",\"private_key\":\"SECRET-PEM\"}");
    runner
        .withPropertyValues(
            "objlog.store.type=gcs", "objlog.store.bucket=logs", "objlog.store.gcs.credentials-location=file:" + key)
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).contains("objlog.store.gcs.credentials-location").doesNotContain("SECRET-PEM");
        });
    runner
        .withPropertyValues(
            "objlog.store.type=gcs", "objlog.store.bucket=logs", "objlog.store.gcs.credentials-location=file:" + temp.resolve("absent.json"))
        .run(context -> {
          assertThat(context).hasFailed();
          assertThat(FailureAnalyses.analyze(context.getStartupFailure()).getDescription())
              .contains("objlog.store.gcs.credentials-location");
        });
  }

  @Test
  void azureFromEndpointAndSharedKey() {
    runner
        .withPropertyValues(
            "objlog.store.type=azure",
            "objlog.store.container=logs",
            "objlog.store.azure.endpoint=http://127.0.0.1:10000/devstoreaccount1",
            "objlog.store.azure.account-name=devstoreaccount1",
            "objlog.store.azure.account-key=" + AZURITE_KEY,
            "objlog.store.azure.block-size=4MB")
        .run(context -> {
          assertThat(context).hasNotFailed();
          ObjectStore store = context.getBean(ObjectStore.class);
          assertThat(store).isInstanceOf(AzureBlobObjectStore.class);
          assertThat(store.describe()).contains("logs").doesNotContain(AZURITE_KEY);
        });
  }

  @Test
  void azureReusesTheApplicationsBlobServiceClient() {
    BlobServiceClient client =
        new BlobServiceClientBuilder()
            .endpoint("http://127.0.0.1:10000/devstoreaccount1")
            .credential(new StorageSharedKeyCredential("devstoreaccount1", AZURITE_KEY))
            .buildClient();
    runner
        .withPropertyValues("objlog.store.type=azure", "objlog.store.container=logs")
        .withBean(BlobServiceClient.class, () -> client)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context.getBean(ObjectStore.class)).isInstanceOf(AzureBlobObjectStore.class);
        });
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "objlog.store.azure.endpoint=http://127.0.0.1:10000/a; objlog.store.container; needs a blob container",
        "objlog.store.container=logs; objlog.store.azure.endpoint; needs a way to reach the storage account",
        "objlog.store.container=logs,objlog.store.azure.endpoint=http://h/a,objlog.store.azure.connection-string=x;"
            + " objlog.store.azure.connection-string; both",
        "objlog.store.container=logs,objlog.store.azure.endpoint=http://h/a,objlog.store.azure.account-name=a;"
            + " objlog.store.azure.account-key; both an account name and an account key",
        "objlog.store.container=logs,objlog.store.azure.account-name=a,objlog.store.azure.account-key=k;"
            + " objlog.store.azure.endpoint; no endpoint",
        "objlog.store.container=logs,objlog.store.azure.endpoint=http://h/a,objlog.store.segment-storage-class=Archive;"
            + " objlog.store.segment-storage-class; Archive' is not a storage class objlog can write Azure segments with",
      })
  void azureConfigurationErrorsNameTheProperty(String properties, String property, String says) {
    runner
        .withPropertyValues("objlog.store.type=azure")
        .withPropertyValues(properties.split(","))
        .run(context -> {
          assertThat(context).hasFailed();
          FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
          assertThat(analysis.getDescription()).startsWith("Invalid objlog configuration: " + property).contains(says);
        });
  }

  /** Writes every kind of object through the starter's store, under a fresh prefix; that prefix. */
  private static String writeEveryWay(ObjectStore store, int bigBytes) {
    String prefix = "wiring/" + UUID.randomUUID() + "/";
    EveryWriteKind.write(store, prefix, bigBytes);
    return prefix;
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class GcsPropertiesReachTheRequests {
    private static final String KEY = "projects/p/locations/europe-west1/keyRings/objlog/cryptoKeys/segments";
    private FakeGcsAccess gcs;

    @BeforeAll
    void startServer() throws Exception {
      gcs = FakeGcsAccess.start();
      gcs.createBucket("wiring");
    }

    @AfterAll
    void stopServer() {
      gcs.close();
    }

    /** The object-creating requests the starter's store made for one {@link #writeEveryWay} with the given properties. */
    private List<FakeGcsAccess.ObjectWrite> writesWith(String... properties) {
      Storage storage =
          StorageOptions.newBuilder()
              .setProjectId("test")
              .setHost(gcs.host())
              .setCredentials(NoCredentials.getInstance())
              .build()
              .getService();
      String[] prefix = new String[1];
      runner
          .withPropertyValues("objlog.store.type=gcs", "objlog.store.bucket=wiring", "objlog.store.gcs.upload-chunk-size=256KB")
          .withPropertyValues(properties)
          .withBean(Storage.class, () -> storage)
          .run(context -> {
            assertThat(context).hasNotFailed();
            prefix[0] = writeEveryWay(context.getBean(ObjectStore.class), 3 * GcsObjectStore.CHUNK_GRANULARITY - 5);
          });
      return gcs.objectWrites().stream().filter(w -> w.name().startsWith(prefix[0])).toList();
    }

    @Test
    void kmsKeyNameIsOnEveryUpload() {
      List<FakeGcsAccess.ObjectWrite> writes = writesWith("objlog.store.gcs.kms-key-name=" + KEY);
      assertThat(writes).extracting(FakeGcsAccess.ObjectWrite::uploadType)
          .containsExactly("multipart", "multipart", "multipart", "resumable");
      assertThat(writes).allSatisfy(w -> assertThat(w.query()).containsEntry("kmsKeyName", KEY));
    }

    @Test
    void segmentStorageClassIsOnSegmentUploadsOnly() {
      List<FakeGcsAccess.ObjectWrite> writes = writesWith("objlog.store.segment-storage-class=coldline");
      assertThat(writes).hasSize(4);
      assertThat(writes.subList(0, 2)).allSatisfy(w -> assertThat(w.storageClass()).isEmpty());
      assertThat(writes.subList(2, 4)).allSatisfy(w -> assertThat(w.storageClass()).contains("COLDLINE"));
    }

    @Test
    void withoutThePropertiesNeitherIsSent() {
      assertThat(writesWith()).hasSize(4).allSatisfy(w -> {
        assertThat(w.query()).doesNotContainKey("kmsKeyName");
        assertThat(w.storageClass()).isEmpty();
      });
    }
  }

  @Nested
  @TestInstance(TestInstance.Lifecycle.PER_CLASS)
  class AzurePropertiesReachTheRequests {
    private static final int BLOCK_SIZE = 64 * 1024;
    private AzuriteAccess azurite;

    /** One write request as the store built it: its query and the scope and tier headers. */
    record Sent(String query, Optional<String> scope, Optional<String> tier) {}

    /** Records every PUT in the per-call position, where the request is as the store built it. */
    static final class Capture implements HttpPipelinePolicy {
      final List<Sent> puts = new CopyOnWriteArrayList<>();

      @Override
      public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
        var request = context.getHttpRequest();
        if (request.getHttpMethod().name().equals("PUT")) {
          puts.add(new Sent(
              Optional.ofNullable(request.getUrl().getQuery()).orElse(""),
              Optional.ofNullable(request.getHeaders().getValue("x-ms-encryption-scope")),
              Optional.ofNullable(request.getHeaders().getValue("x-ms-access-tier"))));
        }
        return next.process();
      }

      @Override
      public HttpPipelinePosition getPipelinePosition() {
        return HttpPipelinePosition.PER_CALL;
      }
    }

    @BeforeAll
    void startAzurite() throws Exception {
      if (AzuriteAccess.installed()) {
        azurite = AzuriteAccess.start();
        client(null).createBlobContainer("wiring");
      }
    }

    @AfterAll
    void stopAzurite() throws Exception {
      if (azurite != null) {
        azurite.close();
      }
    }

    private BlobServiceClient client(HttpPipelinePolicy policy) {
      BlobServiceClientBuilder builder =
          new BlobServiceClientBuilder()
              .endpoint(azurite.endpoint())
              .credential(new StorageSharedKeyCredential(AzuriteAccess.ACCOUNT, AzuriteAccess.KEY));
      if (policy != null) {
        builder.addPolicy(policy);
      }
      return builder.buildClient();
    }

    /** The PUTs the starter's store made for one {@link #writeEveryWay} with the given properties. */
    private List<Sent> putsWith(String... properties) {
      Assumptions.assumeTrue(azurite != null, "Azurite is not installed (npm ci in test-infra/azurite)");
      Capture capture = new Capture();
      BlobServiceClient client = client(capture);
      runner
          .withPropertyValues("objlog.store.type=azure", "objlog.store.container=wiring", "objlog.store.azure.block-size=64KB")
          .withPropertyValues(properties)
          .withBean(BlobServiceClient.class, () -> client)
          .run(context -> {
            assertThat(context).hasNotFailed();
            writeEveryWay(context.getBean(ObjectStore.class), 3 * BLOCK_SIZE - 7);
          });
      return List.copyOf(capture.puts);
    }

    @Test
    void encryptionScopeIsOnEveryPutBlobPutBlockAndPutBlockList() {
      List<Sent> puts = putsWith("objlog.store.azure.encryption-scope=objlog-scope");
      // Put Blob x3 (create-only, compare-and-swap, small segment), Put Block x3, Put Block List.
      assertThat(puts).hasSize(7);
      assertThat(puts.get(6).query()).contains("comp=blocklist");
      assertThat(puts).allSatisfy(p -> assertThat(p.scope()).contains("objlog-scope"));
    }

    @Test
    void segmentTierIsOnSegmentBlobsOnly() {
      List<Sent> puts = putsWith("objlog.store.segment-storage-class=cool");
      assertThat(puts).hasSize(7);
      assertThat(puts.subList(0, 2)).allSatisfy(p -> assertThat(p.tier()).isEmpty());
      assertThat(puts.get(2).tier()).contains("Cool");
      assertThat(puts.get(6).tier()).contains("Cool");
    }

    @Test
    void withoutThePropertiesNeitherIsSent() {
      assertThat(putsWith()).hasSize(7).allSatisfy(p -> {
        assertThat(p.scope()).isEmpty();
        assertThat(p.tier()).isEmpty();
      });
    }
  }
}
