package dev.objlog.spring.core;

import dev.objlog.InvalidArgumentException;

/**
 * A value could not be turned into record bytes: its type has no conversion (only {@code String},
 * {@code byte[]}, {@code ByteBuffer}, and with Jackson on the classpath any JSON-serialisable
 * object), or serialising it failed. A caller error; nothing was sent.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class ObjlogConversionException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  public ObjlogConversionException(String message) {
    super(message);
  }

  public ObjlogConversionException(String message, Throwable cause) {
    super(message);
    initCause(cause);
  }
}
