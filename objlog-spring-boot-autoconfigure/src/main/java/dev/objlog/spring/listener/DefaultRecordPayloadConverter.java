package dev.objlog.spring.listener;

import dev.objlog.spring.core.ObjlogConversionException;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * {@code byte[]}, {@code String} (UTF-8) and {@code ByteBuffer} directly; anything else through the
 * given JSON converter, or fails without one.
 *
 * <p>Thread-safety: safe for concurrent use when the JSON converter is.
 */
public final class DefaultRecordPayloadConverter implements RecordPayloadConverter {
  private final @Nullable RecordPayloadConverter json;

  public DefaultRecordPayloadConverter(@Nullable RecordPayloadConverter json) {
    this.json = json;
  }

  @Override
  public Object fromBytes(byte[] value, Type targetType) {
    if (targetType == byte[].class) {
      return value;
    }
    if (targetType == String.class || targetType == Object.class || targetType == CharSequence.class) {
      return new String(value, StandardCharsets.UTF_8);
    }
    if (targetType == ByteBuffer.class) {
      return ByteBuffer.wrap(value).asReadOnlyBuffer();
    }
    if (json == null) {
      throw new ObjlogConversionException("cannot convert a record value to " + targetType.getTypeName()
          + ": Jackson is not on the classpath (use String, byte[] or ByteBuffer, or define a RecordPayloadConverter)");
    }
    return json.fromBytes(value, targetType);
  }
}
