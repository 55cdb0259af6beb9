package dev.objlog.spring.core;

import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Serialises values to JSON (UTF-8) with a Jackson 3 {@link JsonMapper}, normally the
 * application's own bean, so its modules and settings apply.
 *
 * <p>Thread-safety: safe for concurrent use (a configured JsonMapper is).
 */
public final class JacksonRecordValueConverter implements RecordValueConverter {
  private final JsonMapper mapper;

  public JacksonRecordValueConverter(JsonMapper mapper) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  @Override
  public byte[] toBytes(Object value) {
    try {
      return mapper.writeValueAsBytes(value);
    } catch (JacksonException e) {
      throw new ObjlogConversionException("cannot write a " + value.getClass().getName() + " as JSON: "
          + e.getOriginalMessage(), e);
    }
  }
}
