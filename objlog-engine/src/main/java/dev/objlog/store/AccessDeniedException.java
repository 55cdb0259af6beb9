package dev.objlog.store;

/**
 * The store refused a request because the credentials lack a permission (S3 403 AccessDenied, GCS
 * 403, Azure 403 AuthorizationPermissionMismatch or AuthorizationFailure). A {@link
 * PermanentStoreException}: only granting the permission helps. The permissions each role needs
 * are listed per store in docs/stores/*.md.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class AccessDeniedException extends PermanentStoreException {
  private static final long serialVersionUID = 1L;

  private final String operation;
  private final String key;
  private final String permission;

  /**
   * @param message what was refused and what to grant, as the adapters phrase it
   * @param operation the refused request, e.g. {@code "compare-and-swap PUT"}
   * @param key the key or prefix of the request, empty for a request on several keys
   * @param permission the permission (S3 IAM action, GCS permission, Azure data action) it needs
   */
  public AccessDeniedException(String message, String operation, String key, String permission, Throwable cause) {
    super(message, cause);
    this.operation = operation;
    this.key = key;
    this.permission = permission;
  }

  /** The refused request, as the adapter names it (e.g. {@code "LIST"}, {@code "create-only PUT"}). */
  public String operation() {
    return operation;
  }

  /** The key or prefix the request named; empty for a request on several keys. */
  public String key() {
    return key;
  }

  /**
   * The permission the request needs: an S3 IAM action ({@code s3:PutObject}), a GCS permission
   * ({@code storage.objects.create}) or an Azure data action.
   */
  public String permission() {
    return permission;
  }
}
