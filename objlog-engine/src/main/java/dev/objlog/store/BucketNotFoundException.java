package dev.objlog.store;

/**
 * The bucket (or Azure blob container) the store was configured with does not exist. A {@link
 * PermanentStoreException}: objlog never creates buckets, so only creating it or fixing the
 * configured name (or endpoint, region, account) helps.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class BucketNotFoundException extends PermanentStoreException {
  private static final long serialVersionUID = 1L;

  private final String bucket;

  /**
   * @param message what was asked and what to do, as the adapters phrase it
   * @param bucket the name of the missing bucket or container
   */
  public BucketNotFoundException(String message, String bucket, Throwable cause) {
    super(message, cause);
    this.bucket = bucket;
  }

  /** The name of the missing bucket or container. */
  public String bucket() {
    return bucket;
  }
}
