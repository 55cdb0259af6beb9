package dev.objlog.spring.listener;

import dev.objlog.spring.core.ObjlogConversionException;
import java.lang.reflect.Type;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads record values as JSON with a Jackson 3 {@link JsonMapper}, normally the application's.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class JacksonRecordPayloadConverter implements RecordPayloadConverter {
  private final JsonMapper mapper;

  public JacksonRecordPayloadConverter(JsonMapper mapper) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  @Override
  public Object fromBytes(byte[] value, Type targetType) {
    try {
      return mapper.readValue(value, mapper.constructType(targetType));
    } catch (JacksonException e) {
      throw new ObjlogConversionException("cannot read a record value as " + targetType.getTypeName() + ": "
          + e.getOriginalMessage(), e);
    }
  }
}
