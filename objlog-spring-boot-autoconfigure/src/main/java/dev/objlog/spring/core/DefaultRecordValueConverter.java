package dev.objlog.spring.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * {@code byte[]} as is, {@code String} as UTF-8, {@code ByteBuffer} as its remaining bytes, and
 * anything else through the JSON converter when there is one.
 *
 * <p>Thread-safety: safe for concurrent use when the JSON converter is.
 */
public final class DefaultRecordValueConverter implements RecordValueConverter {
  private final @Nullable RecordValueConverter json;

  /**
   * @param json converts other objects (to JSON), or null to reject them
   */
  public DefaultRecordValueConverter(@Nullable RecordValueConverter json) {
    this.json = json;
  }

  @Override
  public byte[] toBytes(Object value) {
    Objects.requireNonNull(value, "value");
    if (value instanceof byte[] bytes) {
      return bytes;
    }
    if (value instanceof String text) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    if (json != null) {
      return json.toBytes(value);
    }
    throw new ObjlogConversionException("cannot send a " + value.getClass().getName()
        + ": without Jackson on the classpath only String, byte[] and ByteBuffer values are converted;"
        + " add tools.jackson.core:jackson-databind or define a RecordValueConverter bean");
  }
}
