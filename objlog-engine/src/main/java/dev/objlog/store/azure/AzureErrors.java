package dev.objlog.store.azure;

import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import dev.objlog.store.AccessDeniedException;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.BucketNotFoundException;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.PreconditionFailedException;
import dev.objlog.store.StoreException;
import dev.objlog.store.TransientStoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Turns what the Azure SDK throws into the SPI's exception types. Messages name the request, the
 * container and the status, never the SDK's request dump: the SDK never sees more than a signature,
 * but a message built only from status, error code and our own words cannot leak a credential.
 *
 * <p>Thread-safety: stateless.
 */
final class AzureErrors {
  private AzureErrors() {}

  /**
   * @param what the request, e.g. {@code "PUT key"}
   * @param key the request's key (a listing's prefix), named by an {@link AccessDeniedException}
   * @param write whether the request changes state (decides whether a lost reply may mean "applied")
   * @param container the container name, for the messages
   */
  static StoreException classify(String what, String key, RuntimeException error, boolean write, String container) {
    if (error instanceof StoreException store) {
      return store;
    }
    BlobStorageException blob = find(error, BlobStorageException.class);
    if (blob != null) {
      return fromStatus(what, key, blob, write, container);
    }
    return fromTransport(what, error, write, container);
  }

  static StoreException fromStatus(String what, String key, BlobStorageException e, boolean write, String container) {
    int status = e.getStatusCode();
    BlobErrorCode code = e.getErrorCode();
    String codeText = code == null ? "no error code" : code.toString();
    String answer = what + " answered " + status + " " + codeText;
    switch (status) {
      case 404:
        if (BlobErrorCode.CONTAINER_NOT_FOUND.equals(code)) {
          return new BucketNotFoundException(
              "container " + container + " does not exist (" + answer
                  + "); create it or configure the name of an existing container",
              container, e);
        }
        return new ObjectNotFoundException(what + ": no such object (" + status + " " + codeText + ")", e);
      case 409:
        if (BlobErrorCode.BLOB_ALREADY_EXISTS.equals(code)) {
          return new PreconditionFailedException(what + ": the blob already exists", e);
        }
        return new PermanentStoreException(
            answer + " in container " + container
                + " (a conflicting state such as a lease, a pending copy or a container being deleted)",
            e);
      case 412:
        return new PreconditionFailedException(what + ": the ETag condition did not hold (" + codeText + ")", e);
      case 400:
        return new PermanentStoreException(
            answer + " (the request was rejected as invalid; check the key and the store configuration)", e);
      case 403:
        if (BlobErrorCode.AUTHORIZATION_PERMISSION_MISMATCH.equals(code)
            || BlobErrorCode.AUTHORIZATION_FAILURE.equals(code)) {
          String permission = dataAction(what);
          return new AccessDeniedException(
              answer + ": the principal may not do this in container " + container + "; it needs the data"
                  + " action " + permission + " (a SAS token needs the matching permission; docs/stores/azure.md"
                  + " lists the role of each objlog role)",
              what, key, permission, e);
        }
        // AuthenticationFailed and the like: the credentials themselves.
        // fall through
      case 401:
        return new PermanentStoreException(
            answer + ": access to container " + container
                + " was refused; check the account name and key, the SAS token or the role assignment,"
                + " and that the machine clock is correct",
            e);
      case 408:
        return new TransientStoreException(answer + " (request timeout)", write, e);
      case 429:
        return new TransientStoreException(answer + " (throttled)", false, e);
      case 503:
        // ServerBusy / ServiceUnavailable: the service turned the request away before doing it.
        return new TransientStoreException(answer + " (service busy)", false, e);
      default:
        if (status >= 500) {
          // 500 OperationTimedOut and gateway errors can follow an applied write.
          return new TransientStoreException(answer, write, e);
        }
        return new PermanentStoreException(answer + " in container " + container, e);
    }
  }

  private static final String BLOBS = "Microsoft.Storage/storageAccounts/blobServices/containers/blobs/";

  /** The RBAC data action an operation of {@link AzureBlobObjectStore} needs, by its name. */
  static String dataAction(String what) {
    if (what.startsWith("DELETE")) {
      return BLOBS + "delete";
    }
    if (what.startsWith("PUT")) {
      return BLOBS + "write";
    }
    // GET, HEAD, LIST: listing blobs is authorised by the read action too.
    return BLOBS + "read";
  }

  private static StoreException fromTransport(String what, RuntimeException error, boolean write, String container) {
    // Most specific first: a refused connection is often wrapped in an IOException of its own.
    if (find(error, ConnectException.class) != null
        || find(error, UnknownHostException.class) != null
        || find(error, NoRouteToHostException.class) != null) {
      return new TransientStoreException(
          what + " could not connect to the service of container " + container, false, error);
    }
    if (find(error, InterruptedException.class) != null) {
      Thread.currentThread().interrupt();
      return new TransientStoreException(what + " was interrupted", write, error);
    }
    if (find(error, TimeoutException.class) != null || hasTimeoutInChain(error)) {
      return new TransientStoreException(what + " timed out", write, error);
    }
    IOException io = find(error, IOException.class);
    if (io != null || find(error, UncheckedIOException.class) != null) {
      return new TransientStoreException(
          what + " failed in transport" + (io == null ? "" : ": " + io.getClass().getSimpleName()), write, error);
    }
    return new PermanentStoreException(
        what + " failed unexpectedly in the Azure SDK (" + error.getClass().getName() + ")", error);
  }

  /** Netty's and the JDK's timeout types share no supertype but their name. */
  private static boolean hasTimeoutInChain(Throwable error) {
    int depth = 0;
    for (Throwable t = error; t != null && depth < 32; t = t.getCause(), depth++) {
      if (t.getClass().getSimpleName().contains("Timeout")) {
        return true;
      }
    }
    return false;
  }

  static <T extends Throwable> @Nullable T find(Throwable error, Class<T> type) {
    int depth = 0;
    for (Throwable t = error; t != null && depth < 32; t = t.getCause(), depth++) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }
}
