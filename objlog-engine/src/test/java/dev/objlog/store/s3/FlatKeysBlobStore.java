package dev.objlog.store.s3;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Stores every key under the hex form of its UTF-8 bytes. S3Proxy 4.1.0's in-memory backend is a
 * file tree, so it cannot hold both {@code a/b} and {@code a/b/c} (a file cannot also be a
 * directory; the second write fails with a 500), which S3 and the store contract allow. Hex keeps
 * byte-lexicographic order and prefixes intact, so listings stay correct.
 */
final class FlatKeysBlobStore extends ForwardingBlobStore {
  private static final HexFormat HEX = HexFormat.of();

  FlatKeysBlobStore(BlobStore delegate) {
    super(delegate);
  }

  static String encode(String key) {
    return HEX.formatHex(key.getBytes(StandardCharsets.UTF_8));
  }

  static @Nullable String decode(@Nullable String stored) {
    if (stored == null) {
      return null;
    }
    try {
      return new String(HEX.parseHex(stored), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException notOurs) {
      return stored;
    }
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
    return super.putBlob(request.toBuilder().key(encode(request.key())).build(), body);
  }

  @Override
  public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
    return super.blobMetadata(request.toBuilder().key(encode(request.key())).build());
  }

  @Override
  public boolean blobExists(String bucket, String key) {
    return super.blobExists(bucket, encode(key));
  }

  @Override
  public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
    return super.getBlob(request.toBuilder().key(encode(request.key())).build());
  }

  @Override
  public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
    return super.removeBlob(request.toBuilder().key(encode(request.key())).build());
  }

  @Override
  public ObjectCannedACL getBlobAccess(String bucket, String key) {
    return super.getBlobAccess(bucket, encode(key));
  }

  @Override
  public void setBlobAccess(String bucket, String key, ObjectCannedACL access) {
    super.setBlobAccess(bucket, encode(key), access);
  }

  @Override
  public ListObjectsV2Response list(ListObjectsV2Request request) {
    ListObjectsV2Request.Builder mapped = request.toBuilder();
    if (request.prefix() != null) {
      mapped.prefix(encode(request.prefix()));
    }
    if (request.startAfter() != null) {
      mapped.startAfter(encode(request.startAfter()));
    }
    ListObjectsV2Response response = super.list(mapped.build());
    List<S3Object> contents =
        response.contents().stream().map(o -> o.toBuilder().key(decode(o.key())).build()).toList();
    return response.toBuilder()
        .contents(contents)
        .prefix(request.prefix())
        .startAfter(request.startAfter())
        .build();
  }

  @Override
  public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
    MultipartUpload upload = super.initiateMultipartUpload(request.toBuilder().key(encode(request.key())).build());
    return new MultipartUpload(upload.id(), request, upload.response());
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) {
    super.abortMultipartUpload(encoded(upload));
  }

  @Override
  public CompleteMultipartUploadResponse completeMultipartUpload(
      MultipartUpload upload, CompleteMultipartUploadRequest request) {
    CompleteMultipartUploadRequest mapped =
        request.key() == null ? request : request.toBuilder().key(encode(request.key())).build();
    CompleteMultipartUploadResponse response = super.completeMultipartUpload(encoded(upload), mapped);
    return response.key() == null ? response : response.toBuilder().key(decode(response.key())).build();
  }

  @Override
  public UploadPartResponse uploadMultipartPart(MultipartUpload upload, UploadPartRequest request, InputStream body) {
    UploadPartRequest mapped = request.key() == null ? request : request.toBuilder().key(encode(request.key())).build();
    return super.uploadMultipartPart(encoded(upload), mapped, body);
  }

  @Override
  public List<Part> listMultipartUpload(MultipartUpload upload) {
    return super.listMultipartUpload(encoded(upload));
  }

  private static MultipartUpload encoded(MultipartUpload upload) {
    CreateMultipartUploadRequest request = upload.request();
    return new MultipartUpload(
        upload.id(), request.toBuilder().key(encode(request.key())).build(), upload.response());
  }
}
