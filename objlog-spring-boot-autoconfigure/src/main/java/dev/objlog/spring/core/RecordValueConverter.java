package dev.objlog.spring.core;

/**
 * Turns a value handed to {@link ObjlogTemplate} into record bytes. The default converts {@code
 * byte[]} (as is), {@code String} (UTF-8) and {@code ByteBuffer} (its remaining bytes), and any
 * other object to JSON with the application's {@code JsonMapper} when Jackson is present. Define a
 * bean of this type to replace it.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface RecordValueConverter {

  /**
   * @throws ObjlogConversionException when the value cannot be converted
   */
  byte[] toBytes(Object value);
}
