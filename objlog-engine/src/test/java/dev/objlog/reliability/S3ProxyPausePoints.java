package dev.objlog.reliability;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicReference;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

/**
 * Named pause points inside an S3Proxy child ({@link CrashChildren.S3ProxyOnDisk}): once armed, the
 * next PUT of the matching kind prints {@code PAUSED <point> <key> .} and blocks forever, so the
 * parent's SIGKILL lands exactly there. It sits under {@code AtomicConditionsBlobStore}'s per-key
 * lock and above the key encoding, so it sees the keys the client sent.
 *
 * <p>Thread-safety: safe for concurrent requests; one pause per arming.
 */
final class S3ProxyPausePoints extends ForwardingBlobStore {
  /** Where the server stops. */
  enum Point {
    /** Half of a segment's body is in the backend's temp file. */
    SEGMENT_MID_BODY,
    /** The segment is stored; its reply is never sent. */
    SEGMENT_AFTER_WRITE,
    /** Half of a head compare-and-swap's body is in the backend's temp file. */
    HEAD_MID_BODY,
    /** The head is swapped; the reply is never sent (the client sees a lost reply). */
    HEAD_AFTER_WRITE;

    boolean matches(PutObjectRequest request) {
      String key = request.key();
      boolean head = key.endsWith("/head.plc") && request.ifMatch() != null;
      boolean segment = key.contains("/segments/") && key.endsWith(".plseg");
      return switch (this) {
        case SEGMENT_MID_BODY, SEGMENT_AFTER_WRITE -> segment;
        case HEAD_MID_BODY, HEAD_AFTER_WRITE -> head;
      };
    }

    boolean midBody() {
      return this == SEGMENT_MID_BODY || this == HEAD_MID_BODY;
    }
  }

  private final AtomicReference<Point> armed = new AtomicReference<>();

  S3ProxyPausePoints(BlobStore delegate) {
    super(delegate);
  }

  void arm(Point point) {
    armed.set(point);
  }

  @Override
  public PutObjectResponse putBlob(PutObjectRequest request, InputStream body) {
    Point point = armed.get();
    if (point == null || !point.matches(request) || !armed.compareAndSet(point, null)) {
      return super.putBlob(request, body);
    }
    if (point.midBody()) {
      long length = request.contentLength() == null ? 2 : request.contentLength();
      return super.putBlob(request, new PauseHalfway(body, Math.max(1, length / 2), point, request.key()));
    }
    super.putBlob(request, body);
    throw pauseForever(point, request.key());
  }

  static AssertionError pauseForever(Point point, String key) {
    CrashChildren.say("PAUSED " + point + " " + key + " .");
    while (true) {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        // Only the parent's SIGKILL ends this request.
      }
    }
  }

  /** Passes the first {@code limit} bytes through, then pauses forever. */
  private static final class PauseHalfway extends FilterInputStream {
    private final Point point;
    private final String key;
    private long left;

    PauseHalfway(InputStream in, long limit, Point point, String key) {
      super(in);
      this.left = limit;
      this.point = point;
      this.key = key;
    }

    @Override
    public int read() throws IOException {
      if (left <= 0) {
        throw pauseForever(point, key);
      }
      int b = super.read();
      if (b >= 0) {
        left--;
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (left <= 0) {
        throw pauseForever(point, key);
      }
      int n = super.read(buffer, offset, (int) Math.min(length, left));
      if (n > 0) {
        left -= n;
      }
      return n;
    }
  }
}
