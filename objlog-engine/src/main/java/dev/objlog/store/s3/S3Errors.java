package dev.objlog.store.s3;

import dev.objlog.store.AccessDeniedException;
import dev.objlog.store.ConditionalWritesNotHonouredException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.BucketNotFoundException;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.StoreException;
import dev.objlog.store.TransientStoreException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * Turns what the SDK throws into the SPI's exception types. Kept apart from the store so the table
 * can be tested without a server.
 *
 * <p>Messages name the operation, bucket and key, the HTTP status, S3's error code and request id,
 * and what to change; they never quote an authentication error's server message (some servers echo
 * the access key id there), and never carry credentials.
 */
final class S3Errors {
  private S3Errors() {}

  /** Error codes S3 and compatible servers use for "slow down" and momentary unavailability. */
  private static final Set<String> TRANSIENT_CODES =
      Set.of(
          "SlowDown",
          "Throttling",
          "ThrottlingException",
          "ThrottledException",
          "RequestThrottled",
          "RequestLimitExceeded",
          "TooManyRequests",
          "TooManyRequestsException",
          "ProvisionedThroughputExceededException",
          "ServiceUnavailable",
          "InternalError",
          "RequestTimeout",
          "RequestTimeoutException",
          "OperationAborted",
          "XMinioServerNotInitialized");

  /** Codes meaning "the credentials themselves are wrong". */
  private static final Set<String> CREDENTIAL_CODES =
      Set.of(
          "InvalidAccessKeyId",
          "SignatureDoesNotMatch",
          "InvalidToken",
          "ExpiredToken",
          "TokenRefreshRequired",
          "InvalidSecurity",
          "MissingSecurityHeader",
          "AuthorizationHeaderMalformed");

  /** Codes meaning "this bucket lives in another region than the client signs for". */
  private static final Set<String> REGION_CODES =
      Set.of("PermanentRedirect", "IncorrectEndpoint", "IllegalLocationConstraintException");

  /**
   * Classifies an SDK failure.
   *
   * @param operation e.g. {@code "PUT"} or {@code "list"}, for the message
   * @param key the key, or empty for bucket-level requests
   * @param write whether the request could change the bucket (decides mayHaveTakenEffect)
   * @param conditional whether the request carried an If-Match / If-None-Match condition
   */
  static StoreException classify(
      SdkException e, String operation, String bucket, String key, boolean write, boolean conditional) {
    String where = operation + " " + location(bucket, key);
    if (e instanceof SdkServiceException service) {
      return classifyService(service, operation, bucket, key, where, write, conditional);
    }
    if (e instanceof ApiCallAttemptTimeoutException || e instanceof ApiCallTimeoutException) {
      return new TransientStoreException(
          where + " timed out (" + firstLine(e.getMessage()) + ")", write, e);
    }
    if (e instanceof AbortedException) {
      return new TransientStoreException(where + " was interrupted", write, e);
    }
    if (e instanceof SdkClientException && hasCause(e, IOException.class)) {
      boolean notSent = neverReachedTheServer(e);
      return new TransientStoreException(
          where + " failed to reach the store: " + rootMessage(e), write && !notSent, e);
    }
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (message.toLowerCase(Locale.ROOT).contains("credentials")) {
      return new PermanentStoreException(
          where + " could not be signed: " + firstLine(message)
              + ". Configure credentials for the S3 store (builder credentials(...), the"
              + " AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY environment, a profile or an instance"
              + " role)",
          e);
    }
    if (message.toLowerCase(Locale.ROOT).contains("region")) {
      return new PermanentStoreException(
          where + " has no region: " + firstLine(message)
              + ". Set the S3 store's region (builder region(...) or AWS_REGION)",
          e);
    }
    // Anything else on the client side (a checksum mismatch on a response, an unparsable answer)
    // may not repeat; a read is worth retrying and a write is safe to retry because it is
    // conditional.
    return new TransientStoreException(where + " failed: " + firstLine(message), write, e);
  }

  private static StoreException classifyService(
      SdkServiceException e, String operation, String bucket, String key, String where, boolean write,
      boolean conditional) {
    int status = e.statusCode();
    String code = errorCode(e);
    String detail = detail(e, status, code);
    if (status == 412 || "PreconditionFailed".equals(code) || "ConditionalRequestConflict".equals(code)) {
      return new PreconditionFailedException(where + ": condition did not hold " + detail, e);
    }
    if ("NoSuchBucket".equals(code)) {
      return new BucketNotFoundException(
          where + ": bucket '" + bucket + "' does not exist " + detail
              + ". Create the bucket, or fix the configured bucket name, endpoint or region",
          bucket, e);
    }
    if (status == 404 && ("NoSuchKey".equals(code) || code.isEmpty())) {
      return new ObjectNotFoundException(where + ": no such object " + detail, e);
    }
    if (TRANSIENT_CODES.contains(code) || status == 429 || status == 408 || status >= 500 && status != 501
        || e.isThrottlingException()) {
      // A 503 (SlowDown, ServiceUnavailable) and a 429 are refusals before any work; a 500 or a
      // gateway error may come after S3 applied the write.
      boolean refused =
          status == 503 || status == 429 || status == 408 || "SlowDown".equals(code)
              || "RequestTimeout".equals(code) || code.startsWith("Throttl")
              || code.startsWith("TooManyRequests") || "RequestLimitExceeded".equals(code);
      return new TransientStoreException(
          where + ": the store is busy or failing " + detail, write && !refused, e);
    }
    if (status == 501 && conditional) {
      return new ConditionalWritesNotHonouredException(
          where + ": the store does not implement conditional requests " + detail
              + ". objlog needs If-None-Match / If-Match on PUT and on CompleteMultipartUpload;"
              + " use AWS S3, a current MinIO, or another server that supports them");
    }
    if (CREDENTIAL_CODES.contains(code)) {
      return new PermanentStoreException(
          where + ": the credentials were rejected " + detail
              + ". Check the access key id and secret (or the session token) the S3 store uses",
          e);
    }
    if ("RequestTimeTooSkewed".equals(code)) {
      return new PermanentStoreException(
          where + ": this machine's clock is too far from the store's " + detail
              + ". Synchronise the clock (NTP)",
          e);
    }
    if (REGION_CODES.contains(code) || status == 301) {
      return new PermanentStoreException(
          where + ": bucket '" + bucket + "' is not in the configured region " + detail
              + ". Set the S3 store's region to the bucket's region",
          e);
    }
    if (status == 403) {
      return accessDenied(e, operation, bucket, key, where, detail);
    }
    if (status == 501) {
      return new PermanentStoreException(
          where + ": the store does not implement this request " + detail
              + ". Use AWS S3 or a more complete S3-compatible server",
          e);
    }
    String serverMessage = serverMessage(e);
    return new PermanentStoreException(
        where + ": the store rejected the request " + detail
            + (serverMessage.isEmpty() ? "" : ": " + serverMessage)
            + ". This is not retried; check the bucket name, the key and the store's S3 compatibility",
        e);
  }

  private static AccessDeniedException accessDenied(
      SdkServiceException e, String operation, String bucket, String key, String where, String detail) {
    String permission = permission(operation);
    // A listing's operation carries its prefix ("LIST objlog/"); the exception names it as the key.
    boolean listing = key.isEmpty() && operation.startsWith("LIST ");
    String subject = listing ? operation.substring(5) : key;
    String why = permission.equals("s3:GetObject")
        ? " (S3 also answers 403 instead of 404 for a missing key when s3:ListBucket is not granted)"
        : "";
    return new AccessDeniedException(
        where + ": access denied " + detail + ". The credentials need " + permission + " on "
            + "arn:aws:s3:::" + bucket + (permission.equals("s3:ListBucket") ? "" : "/" + (key.isEmpty() ? "*" : key))
            + why + "; docs/stores/s3.md lists the policy of each role (writer, reader, reclaimer)",
        listing ? "LIST" : operation, subject, permission, e);
  }

  /** The IAM action an operation of {@link S3ObjectStore} and {@link S3Upload} needs, by its name. */
  static String permission(String operation) {
    if (operation.startsWith("LIST")) {
      return "s3:ListBucket";
    }
    if (operation.startsWith("DELETE")) {
      return "s3:DeleteObject";
    }
    if (operation.startsWith("abort upload")) {
      return "s3:AbortMultipartUpload";
    }
    if (operation.startsWith("GET") || operation.startsWith("HEAD") || operation.startsWith("conditional GET")) {
      return "s3:GetObject";
    }
    // create-only PUT, compare-and-swap PUT, start upload, upload part, complete upload
    return "s3:PutObject";
  }

  static String errorCode(SdkServiceException e) {
    if (e instanceof AwsServiceException aws && aws.awsErrorDetails() != null) {
      String code = aws.awsErrorDetails().errorCode();
      return code == null ? "" : code;
    }
    return "";
  }

  static boolean hasCode(SdkException e, String code) {
    return e instanceof SdkServiceException service && code.equals(errorCode(service));
  }

  private static String serverMessage(SdkServiceException e) {
    if (e instanceof AwsServiceException aws && aws.awsErrorDetails() != null) {
      String m = aws.awsErrorDetails().errorMessage();
      return m == null ? "" : firstLine(m);
    }
    return "";
  }

  private static String detail(SdkServiceException e, int status, String code) {
    StringBuilder b = new StringBuilder("(HTTP ").append(status);
    if (!code.isEmpty()) {
      b.append(' ').append(code);
    }
    if (e.requestId() != null && !e.requestId().isEmpty()) {
      b.append(", request id ").append(e.requestId());
    }
    return b.append(')').toString();
  }

  static String location(String bucket, String key) {
    return key.isEmpty() ? "s3://" + bucket : "s3://" + bucket + "/" + key;
  }

  private static boolean neverReachedTheServer(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException) {
        return true;
      }
      String name = t.getClass().getSimpleName();
      if (name.equals("ConnectTimeoutException") || name.equals("ConnectionRequestTimeoutException")
          || name.equals("ConnectionPoolTimeoutException")) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage();
    return root.getClass().getSimpleName() + (m == null ? "" : ": " + firstLine(m));
  }

  private static String firstLine(@Nullable String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
