package dev.objlog.spring.listener;

import java.lang.reflect.Type;

/**
 * Turns a record's value into a listener method's payload argument. The default gives {@code
 * byte[]} as is, {@code String} as UTF-8, {@code ByteBuffer} read-only, and reads any other type as
 * JSON with the application's {@code JsonMapper} when Jackson is present. Define a bean of this
 * type to replace it.
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface RecordPayloadConverter {

  /**
   * @throws dev.objlog.spring.core.ObjlogConversionException when the value cannot be converted
   */
  Object fromBytes(byte[] value, Type targetType);
}
