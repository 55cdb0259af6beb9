package dev.objlog.store.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.storage.blob.models.BlobStorageException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.StoreException;
import dev.objlog.store.TransientStoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** How Azure SDK failures become the SPI's exception types. */
class AzureErrorClassificationTests {

  private static BlobStorageException answer(int status, String errorCode) {
    HttpHeaders headers = new HttpHeaders();
    if (!errorCode.isEmpty()) {
      headers.set(HttpHeaderName.fromString("x-ms-error-code"), errorCode);
    }
    HttpRequest request = new HttpRequest(HttpMethod.PUT, "http://127.0.0.1:1/acct/c/k");
    HttpResponse response =
        new HttpResponse(request) {
          @Override
          public int getStatusCode() {
            return status;
          }

          @Override
          @Deprecated
          public String getHeaderValue(String name) {
            return headers.getValue(HttpHeaderName.fromString(name));
          }

          @Override
          public HttpHeaders getHeaders() {
            return headers;
          }

          @Override
          public Flux<ByteBuffer> getBody() {
            return Flux.empty();
          }

          @Override
          public Mono<byte[]> getBodyAsByteArray() {
            return Mono.empty();
          }

          @Override
          public Mono<String> getBodyAsString() {
            return Mono.empty();
          }

          @Override
          public Mono<String> getBodyAsString(Charset charset) {
            return Mono.empty();
          }
        };
    return new BlobStorageException("Status code " + status + ", " + errorCode, response, null);
  }

  private static StoreException classify(RuntimeException e, boolean write) {
    return AzureErrors.classify("PUT k", "k", e, write, "logs");
  }

  @ParameterizedTest(name = "{0} {1} -> {2}")
  @CsvSource({
    "409, BlobAlreadyExists, PreconditionFailedException",
    "412, ConditionNotMet, PreconditionFailedException",
    "404, BlobNotFound, ObjectNotFoundException",
    "404, '', ObjectNotFoundException",
    "404, ContainerNotFound, BucketNotFoundException",
    "409, LeaseIdMissing, PermanentStoreException",
    "400, InvalidBlockList, PermanentStoreException",
    "401, NoAuthenticationInformation, PermanentStoreException",
    "403, AuthenticationFailed, PermanentStoreException",
    "403, AuthorizationPermissionMismatch, AccessDeniedException",
    "403, AuthorizationFailure, AccessDeniedException",
    "408, '', TransientStoreException",
    "429, '', TransientStoreException",
    "500, OperationTimedOut, TransientStoreException",
    "500, InternalError, TransientStoreException",
    "502, '', TransientStoreException",
    "503, ServerBusy, TransientStoreException",
    "504, '', TransientStoreException",
  })
  void statusAndErrorCodeDecideTheType(int status, String code, String type) {
    assertThat(classify(answer(status, code), true).getClass().getSimpleName()).isEqualTo(type);
  }

  @ParameterizedTest(name = "{0} needs {1}")
  @CsvSource({
    "GET k, read",
    "HEAD k, read",
    "LIST <all>, read",
    "PUT k (create-only), write",
    "'PUT BLOCK LIST k (create-only, 2 blocks)', write",
    "DELETE k, delete",
  })
  void aMissingRoleAssignmentNamesTheDataActionItNeeds(String what, String action) {
    StoreException e = AzureErrors.classify(what, "k", answer(403, "AuthorizationPermissionMismatch"), false, "logs");
    String dataAction = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs/" + action;
    assertThat(e).isInstanceOfSatisfying(dev.objlog.store.AccessDeniedException.class, denied -> {
      assertThat(denied.permission()).isEqualTo(dataAction);
      assertThat(denied.operation()).isEqualTo(what);
      assertThat(denied.key()).isEqualTo("k");
    });
    assertThat(e).hasMessageContaining(dataAction).hasMessageContaining("docs/stores/azure.md");
  }

  @Test
  void wrongCredentialsAreNotAMissingPermission() {
    assertThat(classify(answer(403, "AuthenticationFailed"), false))
        .isNotInstanceOf(dev.objlog.store.AccessDeniedException.class);
  }

  @Test
  void aMissingContainerSaysWhichAndWhatToDo() {
    StoreException e = classify(answer(404, "ContainerNotFound"), false);
    assertThat(e).isInstanceOf(PermanentStoreException.class).hasMessageContaining("container logs does not exist");
    assertThat(e).isInstanceOfSatisfying(dev.objlog.store.BucketNotFoundException.class,
        missing -> assertThat(missing.bucket()).isEqualTo("logs"));
  }

  @Test
  void refusedAccessPointsAtTheCredentials() {
    StoreException e = classify(answer(403, "AuthenticationFailed"), false);
    assertThat(e).hasMessageContaining("account name and key").hasMessageContaining("403 AuthenticationFailed");
  }

  @Test
  void serverErrorsOnWritesMayHaveTakenEffectButThrottlingNever() {
    assertThat(((TransientStoreException) classify(answer(500, "OperationTimedOut"), true)).mayHaveTakenEffect())
        .isTrue();
    assertThat(((TransientStoreException) classify(answer(504, ""), true)).mayHaveTakenEffect()).isTrue();
    assertThat(((TransientStoreException) classify(answer(500, ""), false)).mayHaveTakenEffect()).isFalse();
    assertThat(((TransientStoreException) classify(answer(429, ""), true)).mayHaveTakenEffect()).isFalse();
    assertThat(((TransientStoreException) classify(answer(503, "ServerBusy"), true)).mayHaveTakenEffect()).isFalse();
  }

  @Test
  void aWrappedStorageExceptionIsFoundInTheCauseChain() {
    RuntimeException wrapped = new RuntimeException("reactive wrapper", answer(412, "ConditionNotMet"));
    assertThat(classify(wrapped, true)).isInstanceOf(PreconditionFailedException.class);
  }

  @Test
  void refusedConnectionsAreTransientAndNeverApplied() {
    RuntimeException e = new UncheckedIOException(new ConnectException("Connection refused"));
    StoreException classified = classify(e, true);
    assertThat(classified).isInstanceOf(TransientStoreException.class);
    assertThat(((TransientStoreException) classified).mayHaveTakenEffect()).isFalse();
  }

  @Test
  void timeoutsAndBrokenConnectionsOfWritesMayHaveTakenEffect() {
    // The SDK's per-call timeout surfaces as a RuntimeException around a TimeoutException.
    for (RuntimeException e :
        new RuntimeException[] {
          new RuntimeException(new TimeoutException()),
          new UncheckedIOException(new SocketTimeoutException("Read timed out")),
          new UncheckedIOException(new IOException("Connection reset by peer")),
        }) {
      StoreException write = classify(e, true);
      assertThat(write).isInstanceOf(TransientStoreException.class);
      assertThat(((TransientStoreException) write).mayHaveTakenEffect()).as("write after %s", e).isTrue();
      StoreException read = classify(e, false);
      assertThat(((TransientStoreException) read).mayHaveTakenEffect()).as("read after %s", e).isFalse();
    }
  }

  @Test
  void unknownFailuresArePermanentAndNameTheirType() {
    StoreException e = classify(new IllegalStateException("bug"), false);
    assertThat(e).isInstanceOf(PermanentStoreException.class).hasMessageContaining("IllegalStateException");
  }

  @Test
  void ourOwnExceptionsPassThrough() {
    ObjectNotFoundException own = new ObjectNotFoundException("x");
    assertThat(classify(own, false)).isSameAs(own);
  }

  @Test
  void tokensDropTheQuotesAndHeadersPutThemBack() {
    assertThat(AzureBlobObjectStore.token("\"0x8DC1\"").value()).isEqualTo("0x8DC1");
    assertThat(AzureBlobObjectStore.token("0x8DC1").value()).isEqualTo("0x8DC1");
    assertThat(AzureBlobObjectStore.quote(AzureBlobObjectStore.token("\"0x8DC1\""))).isEqualTo("\"0x8DC1\"");
  }

  @Test
  void keysCompareAsUtf8Bytes() {
    assertThat(dev.objlog.store.KeyOrder.compare("B", "a")).isNegative();
    assertThat(dev.objlog.store.KeyOrder.compare("b-", "b/")).isNegative();
    assertThat(dev.objlog.store.KeyOrder.compare("b/1", "b/1/x")).isNegative();
    assertThat(dev.objlog.store.KeyOrder.compare("b/1/x", "b/10")).isNegative();
    assertThat(dev.objlog.store.KeyOrder.compare("a", "a")).isZero();
    // U+FF5E is EF BD 9E in UTF-8, U+1F600 is F0 9F 98 80: bytes order them the other way round
    // from UTF-16 code units (FF5E vs D83D).
    assertThat(dev.objlog.store.KeyOrder.compare("\uFF5E", "\uD83D\uDE00")).isNegative();
    assertThat("\uFF5E".compareTo("\uD83D\uDE00")).isPositive();
  }
}
