package dev.objlog.store.s3;

import java.io.InputStream;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.S3Exceptions;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Makes S3Proxy's conditional writes atomic, as real S3 and MinIO are. S3Proxy 4.1.0 checks
 * {@code If-Match} by reading the ETag in its HTTP handler and then writing, so several racing
 * compare-and-swaps with one token can all win (TESTING.md). The handler passes both conditions
 * on to the backend in the {@code PutObjectRequest} and {@code CompleteMultipartUploadRequest}
 * it builds; this wrapper re-checks them under a per-key lock around the backend write, answering
 * 412 PreconditionFailed, or 404 NoSuchKey for {@code If-Match} on a missing key, as S3 does.
 */
final class AtomicConditionsBlobStore extends ForwardingBlobStore {
  private final ConcurrentHashMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();

  AtomicConditionsBlobStore(BlobStore delegate) {
    super(delegate);
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
    ReentrantLock lock = lockFor(request.bucket(), request.key());
    lock.lock();
    try {
      check(request.bucket(), request.key(), request.ifMatch(), request.ifNoneMatch());
      return super.putBlob(request, body);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public CompleteMultipartUploadResponse completeMultipartUpload(
      MultipartUpload upload, CompleteMultipartUploadRequest request) {
    String bucket = request.bucket() != null ? request.bucket() : upload.containerName();
    String key = request.key() != null ? request.key() : upload.blobName();
    ReentrantLock lock = lockFor(bucket, key);
    lock.lock();
    try {
      check(bucket, key, request.ifMatch(), request.ifNoneMatch());
      return super.completeMultipartUpload(upload, request);
    } finally {
      lock.unlock();
    }
  }

  private ReentrantLock lockFor(String bucket, String key) {
    return locks.computeIfAbsent(bucket + "/" + key, k -> new ReentrantLock());
  }

  private void check(String bucket, String key, @Nullable String ifMatch, @Nullable String ifNoneMatch) {
    if (ifMatch == null && ifNoneMatch == null) {
      return;
    }
    HeadObjectResponse current = delegate().blobMetadataIfPresent(bucket, key);
    if (ifNoneMatch != null) {
      if (current != null && ("*".equals(ifNoneMatch.trim()) || sameETag(ifNoneMatch, current.eTag()))) {
        throw S3Exceptions.preconditionFailed(null);
      }
    }
    if (ifMatch != null) {
      if (current == null) {
        throw S3Exceptions.noSuchKey(bucket, key, "");
      }
      if (!"*".equals(ifMatch.trim()) && !sameETag(ifMatch, current.eTag())) {
        throw S3Exceptions.preconditionFailed(null);
      }
    }
  }

  private static boolean sameETag(String a, @Nullable String b) {
    return b != null && unquote(a).equals(unquote(b));
  }

  private static String unquote(String etag) {
    String t = etag.trim();
    return t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"") ? t.substring(1, t.length() - 1) : t;
  }
}
