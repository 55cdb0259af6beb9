package dev.objlog.store;

import java.io.OutputStream;

/**
 * A streaming write of one object: bytes go out as they are produced (multipart on S3, staged
 * blocks on Azure, a resumable upload on GCS, a temporary file locally), and the object becomes
 * visible only when {@link #complete()} succeeds, create-only. An upload that is aborted, or never
 * completed, leaves no visible object (providers may leave staging debris that scrub or the
 * bucket's own lifecycle removes).
 *
 * <p>Thread-safety: not thread-safe; one producer writes, then completes or aborts.
 */
public interface ObjectUpload extends AutoCloseable {

  /** The key the object will have. */
  String key();

  /** Appends bytes. May block while earlier parts are sent. */
  void write(byte[] bytes, int offset, int length);

  default void write(byte[] bytes) {
    write(bytes, 0, bytes.length);
  }

  /** Bytes written so far. */
  long bytesWritten();

  /**
   * Makes the object visible if the key is still free.
   *
   * @return {@link CreateResult.Created} with the new token, or {@link CreateResult.AlreadyExists}
   *     when another object took the key first (nothing of this upload stays visible)
   * @throws IndeterminateStoreException when the completion may or may not have taken effect
   */
  CreateResult complete();

  /** Abandons the upload and releases what it staged. Idempotent; never throws for a lost race. */
  void abort();

  /** Aborts unless {@link #complete()} succeeded. */
  @Override
  default void close() {
    abort();
  }

  /** A view for code that writes to streams. Closing the stream does not complete the upload. */
  default OutputStream asOutputStream() {
    return new OutputStream() {
      @Override
      public void write(int b) {
        ObjectUpload.this.write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        ObjectUpload.this.write(b, off, len);
      }
    };
  }
}
