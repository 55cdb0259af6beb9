package dev.objlog.format.segment;

/**
 * Where a {@link SegmentEncoder} sends the segment's bytes, in order, each byte exactly once; the
 * encoder never seeks back, so a sink can feed a multipart upload or a hash directly.
 *
 * <p>The encoder reuses its buffers: a sink must consume or copy {@code bytes[offset, offset +
 * length)} before returning. A sink that throws fails the encoder (the exception propagates and the
 * encoder refuses further use), since bytes may have been lost.
 *
 * <p>Thread-safety: called from the encoder's thread only.
 */
@FunctionalInterface
public interface SegmentSink {
  void write(byte[] bytes, int offset, int length);
}
