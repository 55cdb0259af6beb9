package dev.objlog.spring.core;

import dev.objlog.Header;
import dev.objlog.InvalidArgumentException;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.SenderContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the {@code objlog.template} observation knows about one send. Its carrier is the record's
 * headers ({@link RecordHeaders}): a tracer's propagator writes the trace context there when the
 * observation starts, before the record is appended, so a listener's observation continues the
 * trace. A trace header that would take the record past the engine's header limits is skipped,
 * never failing the send.
 *
 * <p>Thread-safety: filled by the sending thread before the append; {@link #getResult()} is set
 * once by the thread completing the send.
 */
public class ObjlogTemplateSenderContext extends SenderContext<ObjlogTemplateSenderContext.RecordHeaders> {
  private final String streamName;
  private final int partition;
  private volatile @Nullable SendResult result;

  public ObjlogTemplateSenderContext(String streamName, int partition, List<Header> headers) {
    super((carrier, key, value) -> carrier.put(key, value), Kind.PRODUCER);
    this.streamName = streamName;
    this.partition = partition;
    setCarrier(new RecordHeaders(headers));
    setRemoteServiceName("objlog");
  }

  public String getStreamName() {
    return streamName;
  }

  public int getPartition() {
    return partition;
  }

  /** The committed send's result; null until it committed, and when it failed. */
  public @Nullable SendResult getResult() {
    return result;
  }

  void setResult(SendResult result) {
    this.result = result;
  }

  /**
   * The headers of the record being sent, to which trace headers are added.
   *
   * <p>Thread-safety: used by the sending thread only.
   */
  public static final class RecordHeaders {
    private final List<Header> headers;
    private int skipped;

    RecordHeaders(List<Header> headers) {
      this.headers = new ArrayList<>(headers);
    }

    /**
     * Sets the header {@code key} (replacing one of that name) when the record can still carry
     * it; otherwise leaves the headers as they were and counts it skipped.
     *
     * @return whether it was set
     */
    public boolean put(String key, String value) {
      byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
      Header header;
      try {
        header = Header.of(keyBytes, value.getBytes(StandardCharsets.UTF_8));
      } catch (InvalidArgumentException e) {
        skipped++; // a key or value longer than a header may be
        return false;
      }
      List<Header> changed = new ArrayList<>(headers.size() + 1);
      for (Header h : headers) {
        if (!Arrays.equals(h.key(), keyBytes)) {
          changed.add(h);
        }
      }
      changed.add(header);
      if (!MessageRecords.fit(changed)) {
        skipped++;
        return false;
      }
      headers.clear();
      headers.addAll(changed);
      return true;
    }

    /** The value of the last header named {@code key}, or null. */
    public @Nullable String get(String key) {
      byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
      for (int i = headers.size() - 1; i >= 0; i--) {
        if (Arrays.equals(headers.get(i).key(), keyBytes)) {
          return headers.get(i).valueAsString();
        }
      }
      return null;
    }

    /** The headers the record is sent with, trace headers included. */
    public List<Header> headers() {
      return Collections.unmodifiableList(headers);
    }

    /** How many headers {@link #put} skipped because the record could not carry them. */
    public int skipped() {
      return skipped;
    }
  }
}
