package dev.objlog.store.s3;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadBucketRequest;
import software.amazon.awssdk.services.s3.model.HeadBucketResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.Part;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Error;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Answers 403 AccessDenied, as S3 does, to each request whose IAM action the principal's {@link
 * IamPolicy} does not allow on the request's resource. One instance per principal; S3Proxy's
 * locator picks it by access key. Each S3 request type's backend call is checked for the action
 * S3 authorises it by (docs.aws.amazon.com, "Actions, resources and condition keys for Amazon
 * S3"); the calls S3Proxy's handler makes for its own bookkeeping (the ETag checks of
 * conditional requests, the stub object of a multipart upload) go to the backend unchecked, as they are not requests of
 * the client. Also as S3 does: a GET or HEAD of a missing key is answered 403, not 404, when the
 * principal may not list the bucket. A multi-object delete answers per key, deleting the allowed
 * keys and reporting AccessDenied for the others.
 *
 * <p>Shared with other modules' tests through the engine's test jar.
 *
 * <p>Thread-safety: safe; the policy is read on each request.
 */
public final class PolicyCheckingBlobStore extends ForwardingBlobStore {
  private final String principal;
  private final Supplier<IamPolicy> policy;

  public PolicyCheckingBlobStore(BlobStore delegate, String principal, Supplier<IamPolicy> policy) {
    super(delegate);
    this.principal = principal;
    this.policy = policy;
  }

  @Override
  public ListObjectsV2Response list(ListObjectsV2Request request) {
    require("s3:ListBucket", bucketArn(request.bucket()));
    return super.list(request);
  }

  @Override
  public ListObjectsResponse listV1(ListObjectsRequest request) {
    require("s3:ListBucket", bucketArn(request.bucket()));
    return delegate().listV1(request);
  }

  @Override
  public HeadBucketResponse headBucket(HeadBucketRequest request) {
    require("s3:ListBucket", bucketArn(request.bucket()));
    return super.headBucket(request);
  }

  @Override
  public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
    requireRead(request.bucket(), request.key());
    return super.getBlob(request);
  }

  @Override
  public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
    requireRead(request.bucket(), request.key());
    return super.blobMetadata(request);
  }

  // S3Proxy's own reads (the ETag of a conditional write, a multipart stub): not client requests.

  @Override
  public HeadObjectResponse blobMetadata(String bucket, String key) {
    return delegate().blobMetadata(bucket, key);
  }

  @Override
  public HeadObjectResponse blobMetadataIfPresent(HeadObjectRequest request) {
    return delegate().blobMetadataIfPresent(request);
  }

  @Override
  public HeadObjectResponse blobMetadataIfPresent(String bucket, String key) {
    return delegate().blobMetadataIfPresent(bucket, key);
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
    if (!isMultipartStub(request.key())) {
      require("s3:PutObject", objectArn(request.bucket(), request.key()));
    }
    return super.putBlob(request, body);
  }

  @Override
  public CopyObjectResponse copyBlob(CopyObjectRequest request) {
    require("s3:GetObject", objectArn(request.sourceBucket(), request.sourceKey()));
    require("s3:PutObject", objectArn(request.destinationBucket(), request.destinationKey()));
    return super.copyBlob(request);
  }

  @Override
  public MultipartUpload initiateMultipartUpload(CreateMultipartUploadRequest request) {
    require("s3:PutObject", objectArn(request.bucket(), request.key()));
    return super.initiateMultipartUpload(request);
  }

  @Override
  public UploadPartResponse uploadMultipartPart(MultipartUpload upload, UploadPartRequest request, InputStream body) {
    require("s3:PutObject", objectArn(upload.containerName(), upload.blobName()));
    return super.uploadMultipartPart(upload, request, body);
  }

  @Override
  public CompleteMultipartUploadResponse completeMultipartUpload(
      MultipartUpload upload, CompleteMultipartUploadRequest request) {
    require("s3:PutObject", objectArn(upload.containerName(), upload.blobName()));
    return super.completeMultipartUpload(upload, request);
  }

  @Override
  public void abortMultipartUpload(MultipartUpload upload) {
    require("s3:AbortMultipartUpload", objectArn(upload.containerName(), upload.blobName()));
    super.abortMultipartUpload(upload);
  }

  @Override
  public List<Part> listMultipartUpload(MultipartUpload upload) {
    // Also S3Proxy's own read while completing an upload; the ListParts request itself is not
    // one objlog makes.
    return super.listMultipartUpload(upload);
  }

  @Override
  public List<software.amazon.awssdk.services.s3.model.MultipartUpload> listMultipartUploads(String bucket) {
    require("s3:ListBucketMultipartUploads", bucketArn(bucket));
    return super.listMultipartUploads(bucket);
  }

  @Override
  public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
    if (!isMultipartStub(request.key())) {
      require("s3:DeleteObject", objectArn(request.bucket(), request.key()));
    }
    return super.removeBlob(request);
  }

  @Override
  public DeleteObjectsResponse removeBlobs(DeleteObjectsRequest request) {
    List<ObjectIdentifier> allowed = new ArrayList<>();
    List<S3Error> denied = new ArrayList<>();
    for (ObjectIdentifier id : request.delete().objects()) {
      if (policy.get().allows("s3:DeleteObject", objectArn(request.bucket(), id.key()))) {
        allowed.add(id);
      } else {
        denied.add(S3Error.builder().key(id.key()).code("AccessDenied").message("Access Denied").build());
      }
    }
    DeleteObjectsResponse done = allowed.isEmpty()
        ? DeleteObjectsResponse.builder().build()
        : delegate().removeBlobs(request.toBuilder().delete(Delete.builder().objects(allowed).quiet(
            request.delete().quiet()).build()).build());
    List<S3Error> errors = new ArrayList<>(done.errors());
    errors.addAll(denied);
    return done.toBuilder().errors(errors).build();
  }

  /** S3Proxy keeps the state of a multipart upload in a stub object of its own. */
  private static boolean isMultipartStub(String key) {
    return key.startsWith(".s3proxy-mpu-stub-");
  }

  private void requireRead(String bucket, String key) {
    require("s3:GetObject", objectArn(bucket, key));
    if (!policy.get().allows("s3:ListBucket", bucketArn(bucket)) && delegate().blobMetadataIfPresent(bucket, key) == null) {
      throw denied("s3:ListBucket", bucketArn(bucket) + " (to tell a missing key " + key + " apart)");
    }
  }

  private void require(String action, String resource) {
    if (!policy.get().allows(action, resource)) {
      throw denied(action, resource);
    }
  }

  private S3Exception denied(String action, String resource) {
    String message = "User " + principal + " is not authorized to perform " + action + " on " + resource;
    return (S3Exception) S3Exception.builder()
        .statusCode(403)
        .message(message)
        .awsErrorDetails(AwsErrorDetails.builder().errorCode("AccessDenied").errorMessage(message).build())
        .build();
  }

  static String bucketArn(String bucket) {
    return "arn:aws:s3:::" + bucket;
  }

  static String objectArn(String bucket, String key) {
    return "arn:aws:s3:::" + bucket + "/" + key;
  }
}
