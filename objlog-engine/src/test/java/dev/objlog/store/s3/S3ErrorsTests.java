package dev.objlog.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.store.ConditionalWritesNotHonouredException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.StoreException;
import dev.objlog.store.TransientStoreException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The table from S3 answers to the SPI's exception types. */
class S3ErrorsTests {

  private static S3Exception s3(int status, String code) {
    return (S3Exception)
        S3Exception.builder()
            .statusCode(status)
            .requestId("REQ123")
            .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("server says " + code).build())
            .message(code)
            .build();
  }

  private static StoreException write(int status, String code) {
    return S3Errors.classify(s3(status, code), "PUT", "bkt", "a/key", true, true);
  }

  @ParameterizedTest(name = "{0} {1} -> {2}, mayHaveTakenEffect={3}")
  @CsvSource({
    "412, PreconditionFailed, PreconditionFailedException, false",
    "409, ConditionalRequestConflict, PreconditionFailedException, false",
    "404, NoSuchKey, ObjectNotFoundException, false",
    "404, '', ObjectNotFoundException, false",
    "404, NoSuchBucket, BucketNotFoundException, false",
    "403, AccessDenied, AccessDeniedException, false",
    "403, InvalidAccessKeyId, PermanentStoreException, false",
    "403, SignatureDoesNotMatch, PermanentStoreException, false",
    "403, RequestTimeTooSkewed, PermanentStoreException, false",
    "400, InvalidArgument, PermanentStoreException, false",
    "400, AuthorizationHeaderMalformed, PermanentStoreException, false",
    "301, PermanentRedirect, PermanentStoreException, false",
    "501, NotImplemented, ConditionalWritesNotHonouredException, false",
    "503, SlowDown, TransientStoreException, false",
    "503, ServiceUnavailable, TransientStoreException, false",
    "429, TooManyRequests, TransientStoreException, false",
    "400, RequestTimeout, TransientStoreException, false",
    "500, InternalError, TransientStoreException, true",
    "502, '', TransientStoreException, true",
    "504, '', TransientStoreException, true",
  })
  void statusAndCodeDecideTheType(int status, String code, String type, boolean mayHaveTakenEffect) {
    StoreException e = write(status, code);
    assertThat(e.getClass().getSimpleName()).isEqualTo(type);
    if (e instanceof TransientStoreException t) {
      assertThat(t.mayHaveTakenEffect()).isEqualTo(mayHaveTakenEffect);
    }
    assertThat(e.getMessage()).contains("PUT s3://bkt/a/key").contains("HTTP " + status);
  }

  @Test
  void readsNeverMayHaveTakenEffect() {
    StoreException e = S3Errors.classify(s3(500, "InternalError"), "GET", "bkt", "k", false, false);
    assertThat(((TransientStoreException) e).mayHaveTakenEffect()).isFalse();
  }

  @Test
  void aMissingBucketIsTypedAndNamesTheBucket() {
    StoreException e = write(404, "NoSuchBucket");
    assertThat(e).isInstanceOf(dev.objlog.store.BucketNotFoundException.class);
    assertThat(((dev.objlog.store.BucketNotFoundException) e).bucket()).isEqualTo("bkt");
  }

  @Test
  void messagesSayWhatToChange() {
    assertThat(write(404, "NoSuchBucket").getMessage())
        .contains("bucket 'bkt' does not exist")
        .contains("Create the bucket");
    assertThat(write(403, "AccessDenied").getMessage()).contains("s3:PutObject");
    assertThat(write(403, "SignatureDoesNotMatch").getMessage()).contains("access key id and secret");
    assertThat(write(301, "PermanentRedirect").getMessage()).contains("region");
    assertThat(write(403, "RequestTimeTooSkewed").getMessage()).contains("clock");
    assertThat(write(500, "InternalError").getMessage()).contains("request id REQ123");
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0} needs {1}")
  @CsvSource({
    "GET, s3:GetObject",
    "HEAD, s3:GetObject",
    "conditional GET, s3:GetObject",
    "'GET bytes=0-9', s3:GetObject",
    "create-only PUT, s3:PutObject",
    "compare-and-swap PUT, s3:PutObject",
    "start upload, s3:PutObject",
    "upload part 2, s3:PutObject",
    "complete upload, s3:PutObject",
    "abort upload, s3:AbortMultipartUpload",
    "DELETE, s3:DeleteObject",
    "DELETE 3 keys, s3:DeleteObject",
    "LIST a/, s3:ListBucket",
  })
  void accessDeniedNamesTheOperationTheKeyAndTheIamActionItNeeds(String operation, String permission) {
    String key = operation.startsWith("LIST") || operation.startsWith("DELETE 3") ? "" : "a/key";
    StoreException e = S3Errors.classify(s3(403, "AccessDenied"), operation, "bkt", key, true, false);
    assertThat(e).isInstanceOfSatisfying(dev.objlog.store.AccessDeniedException.class, denied -> {
      assertThat(denied.permission()).isEqualTo(permission);
      assertThat(denied.operation()).isEqualTo(operation.startsWith("LIST") ? "LIST" : operation);
      assertThat(denied.key()).isEqualTo(operation.startsWith("LIST") ? "a/" : key);
    });
    assertThat(e.getMessage()).contains(operation).contains(permission).contains("docs/stores/s3.md");
  }

  @Test
  void authenticationErrorsNeverQuoteTheServersMessage() {
    // Some servers echo the access key id in the message of an authentication error.
    assertThat(write(403, "InvalidAccessKeyId").getMessage()).doesNotContain("server says");
    assertThat(write(403, "AccessDenied").getMessage()).doesNotContain("server says");
    assertThat(write(400, "InvalidArgument").getMessage()).contains("server says InvalidArgument");
  }

  @Test
  void notImplementedIsOnlyAConditionProblemForConditionalRequests() {
    StoreException e = S3Errors.classify(s3(501, "NotImplemented"), "LIST", "bkt", "", false, false);
    assertThat(e).isInstanceOf(PermanentStoreException.class).isNotInstanceOf(ConditionalWritesNotHonouredException.class);
  }

  @Test
  void timeoutsAfterSendingAWriteMayHaveTakenEffect() {
    StoreException e =
        S3Errors.classify(
            ApiCallAttemptTimeoutException.builder().message("attempt timed out").build(), "PUT", "b", "k", true, true);
    assertThat(e).isInstanceOf(TransientStoreException.class);
    assertThat(((TransientStoreException) e).mayHaveTakenEffect()).isTrue();

    StoreException reset =
        S3Errors.classify(
            SdkClientException.builder().message("read failed").cause(new SocketTimeoutException("Read timed out")).build(),
            "PUT", "b", "k", true, true);
    assertThat(((TransientStoreException) reset).mayHaveTakenEffect()).isTrue();
  }

  @Test
  void aConnectionThatNeverOpenedCannotHaveTakenEffect() {
    StoreException e =
        S3Errors.classify(
            SdkClientException.builder()
                .message("Unable to execute HTTP request")
                .cause(new IOException("wrapped", new ConnectException("Connection refused")))
                .build(),
            "PUT", "b", "k", true, true);
    assertThat(e).isInstanceOf(TransientStoreException.class);
    assertThat(((TransientStoreException) e).mayHaveTakenEffect()).isFalse();
  }

  @Test
  void missingCredentialsArePermanent() {
    StoreException e =
        S3Errors.classify(
            SdkClientException.builder().message("Unable to load credentials from any of the providers in the chain").build(),
            "GET", "b", "k", false, false);
    assertThat(e).isInstanceOf(PermanentStoreException.class);
    assertThat(e.getMessage()).contains("Configure credentials");
  }

  @Test
  void conditionResultsAndNotFoundAreTheirOwnTypes() {
    assertThat(write(412, "PreconditionFailed")).isInstanceOf(PreconditionFailedException.class);
    assertThat(write(404, "NoSuchKey")).isInstanceOf(ObjectNotFoundException.class);
  }
}
