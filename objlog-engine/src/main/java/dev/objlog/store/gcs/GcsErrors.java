package dev.objlog.store.gcs;

import com.google.cloud.BaseServiceException;
import dev.objlog.store.AccessDeniedException;
import dev.objlog.store.BucketNotFoundException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.StoreException;
import dev.objlog.store.TransientStoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Turns what google-cloud-storage throws into the SPI's exception types. The client reports HTTP
 * failures as {@code StorageException} with the status code, and transport failures as a {@code
 * StorageException} with code 0 wrapping the {@link IOException}; channel operations may instead
 * throw the {@link IOException} itself.
 *
 * <p>Thread-safety: stateless.
 */
final class GcsErrors {
  static final int NOT_MODIFIED = 304;
  static final int NOT_FOUND = 404;
  static final int PRECONDITION_FAILED = 412;
  static final int RANGE_NOT_SATISFIABLE = 416;

  private GcsErrors() {}

  /** The HTTP status the client reported, or 0 for a transport failure or a foreign exception. */
  static int status(Throwable e) {
    BaseServiceException service = serviceException(e);
    return service == null ? 0 : service.getCode();
  }

  private static @Nullable BaseServiceException serviceException(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BaseServiceException service) {
        return service;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }

  /**
   * Classifies a failed request.
   *
   * @param what the request, for the message ("PUT bucket/key")
   * @param key the request's key (a listing's prefix), named by an {@link AccessDeniedException}
   * @param write whether the request changes the bucket, so that a lost answer may mean it was
   *     applied
   * @param bucket the store's bucket, named when it does not exist
   */
  static StoreException translate(String what, String key, Throwable e, boolean write, String bucket) {
    BaseServiceException service = serviceException(e);
    int code = service == null ? 0 : service.getCode();
    String reason = service == null || service.getReason() == null ? "" : service.getReason();
    String detail = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    switch (code) {
      case PRECONDITION_FAILED:
        return new PreconditionFailedException(what + ": precondition failed (412)", e);
      case NOT_FOUND:
        if (detail.toLowerCase(Locale.ROOT).contains("bucket")) {
          return new BucketNotFoundException(
              what + ": the bucket does not exist (404: " + detail + "); create it or fix the"
                  + " configured bucket name", bucket, e);
        }
        return new ObjectNotFoundException(what + ": no such object", e);
      case 400:
        return new PermanentStoreException(
            what + ": the request was rejected as invalid (400: " + detail + "); check the key (GCS"
                + " object names are at most 1024 UTF-8 bytes, without control characters) and the"
                + " store options", e);
      case 401:
        return new PermanentStoreException(
            what + ": the credentials were rejected (401); configure valid Google credentials"
                + " (a service account key, workload identity or application default credentials)",
            e);
      case 403:
        if (reason.toLowerCase(Locale.ROOT).contains("ratelimit")) {
          return new TransientStoreException(what + ": throttled (403 " + reason + ")", false, e);
        }
        String permission = permission(what, detail);
        return new AccessDeniedException(
            what + ": permission denied (403: " + detail + "); the principal needs " + permission
                + " on bucket " + bucket + " (roles/storage.objectUser grants every permission a writer"
                + " needs, roles/storage.objectViewer a reader's; docs/stores/gcs.md lists them per role),"
                + " and check that no retention policy or object hold forbids overwrites",
            what, key, permission, e);
      default:
        break;
    }
    if (code == 408 || code == 429 || code >= 500) {
      // A 503 or 429 means GCS did not act; a 500, 502, 504 or 408 may come after the write landed.
      boolean maybe = write && code != 429 && code != 503;
      return new TransientStoreException(what + ": " + code + " " + detail, maybe, e);
    }
    if (code == 0 && (service != null || hasIoCause(e))) {
      boolean notSent = hasCause(e, ConnectException.class) || hasCause(e, UnknownHostException.class)
          || hasCause(e, NoRouteToHostException.class);
      String kind = hasCause(e, InterruptedIOException.class) ? "timed out" : "failed in transport";
      return new TransientStoreException(what + " " + kind + ": " + detail, write && !notSent, e);
    }
    if (code != 0) {
      return new PermanentStoreException(
          what + ": unexpected answer " + code + " (" + detail + "); retrying will not help", e);
    }
    return new PermanentStoreException(what + ": unexpected failure: " + detail, e);
  }

  private static final Pattern NAMED_PERMISSION = Pattern.compile("storage\\.[a-zA-Z]+\\.[a-zA-Z]+");

  /**
   * The permission a refused request needs: the one GCS names in its answer ("... does not have
   * storage.objects.get access ..."), else the one the request kind needs. Overwriting an object
   * (a generation-matched PUT) needs storage.objects.delete besides create.
   */
  static String permission(String what, String detail) {
    Matcher named = NAMED_PERMISSION.matcher(detail);
    if (named.find()) {
      return named.group();
    }
    if (what.startsWith("LIST")) {
      return "storage.objects.list";
    }
    if (what.startsWith("DELETE")) {
      return "storage.objects.delete";
    }
    if (what.startsWith("PUT if generation")) {
      return "storage.objects.create and storage.objects.delete";
    }
    if (what.startsWith("PUT") || what.contains("the upload of")) {
      return "storage.objects.create";
    }
    return "storage.objects.get";
  }

  private static boolean hasIoCause(Throwable e) {
    return hasCause(e, IOException.class);
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
}
