package dev.objlog.coordination.json;

import dev.objlog.CorruptObjectException;
import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A parsed JSON object whose values are kept as parsed: strings, booleans, null, nested
 * objects, lists, and numbers as {@link JsonNumber} text. Accessors check types and ranges and
 * fail with {@link CorruptObjectException} naming the field. Immutable and thread-safe.
 */
public final class JsonObject {
  private final Map<String, @Nullable Object> fields;
  private final String what;

  JsonObject(Map<String, @Nullable Object> fields, String what) {
    this.fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
    this.what = what;
  }

  /** A number as it appeared in the input. */
  public record JsonNumber(String text) {}

  public Set<String> names() {
    return fields.keySet();
  }

  public boolean has(String name) {
    return fields.containsKey(name);
  }

  /** Fails when any field is not in {@code allowed}: objlog's objects reject unknown fields. */
  public JsonObject requireOnly(Set<String> allowed) {
    for (String name : fields.keySet()) {
      if (!allowed.contains(name)) {
        throw new CorruptObjectException(what + ": unknown field \"" + name + "\"");
      }
    }
    return this;
  }

  /**
   * Fails unless every value is a string, a boolean, null or an unsigned integer: the rule of
   * documents that must never hold a value this library could not write back (lease documents,
   * bucket checkpoints).
   */
  public JsonObject requireFlat() {
    for (Map.Entry<String, @Nullable Object> field : fields.entrySet()) {
      Object v = field.getValue();
      boolean flat = v == null || v instanceof String || v instanceof Boolean
          || v instanceof JsonNumber n && isUnsignedInteger(n.text());
      if (!flat) {
        throw new CorruptObjectException(what + ": field \"" + field.getKey()
            + "\" is not a string, boolean, null or unsigned integer");
      }
    }
    return this;
  }

  private static boolean isUnsignedInteger(String text) {
    return !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private Object required(String name) {
    Object v = fields.get(name);
    if (v == null) {
      throw new CorruptObjectException(what + ": missing field \"" + name + "\"");
    }
    return v;
  }

  public String string(String name) {
    if (required(name) instanceof String s) {
      return s;
    }
    throw wrongType(name, "a string");
  }

  public String string(String name, String fallback) {
    return has(name) ? string(name) : fallback;
  }

  public boolean bool(String name, boolean fallback) {
    if (!has(name)) {
      return fallback;
    }
    if (required(name) instanceof Boolean b) {
      return b;
    }
    throw wrongType(name, "a boolean");
  }

  /** An unsigned 64-bit integer (0 .. 2^64-1), written as a plain JSON number. */
  public long unsigned(String name) {
    return unsignedFrom(name, number(name));
  }

  public long unsigned(String name, long fallback) {
    return has(name) ? unsigned(name) : fallback;
  }

  /** A signed 64-bit integer. */
  public long signed(String name) {
    String text = number(name);
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw wrongType(name, "a 64-bit integer");
    }
  }

  public long signed(String name, long fallback) {
    return has(name) ? signed(name) : fallback;
  }

  /** An unsigned integer no larger than {@code max}. */
  public long unsignedAtMost(String name, long max) {
    long v = unsigned(name);
    if (Long.compareUnsigned(v, max) > 0) {
      throw new CorruptObjectException(what + ": field \"" + name + "\" is " + Long.toUnsignedString(v)
          + ", above its maximum " + Long.toUnsignedString(max));
    }
    return v;
  }

  public JsonObject object(String name) {
    if (required(name) instanceof JsonObject o) {
      return o;
    }
    throw wrongType(name, "an object");
  }

  public List<?> list(String name) {
    if (required(name) instanceof List<?> l) {
      return l;
    }
    throw wrongType(name, "an array");
  }

  private String number(String name) {
    if (required(name) instanceof JsonNumber n) {
      return n.text();
    }
    throw wrongType(name, "a number");
  }

  private long unsignedFrom(String name, String text) {
    if (!isUnsignedInteger(text)) {
      throw wrongType(name, "an unsigned integer");
    }
    BigInteger value = new BigInteger(text);
    if (value.bitLength() > 64) {
      throw new CorruptObjectException(what + ": field \"" + name + "\" exceeds 64 bits");
    }
    return value.longValue();
  }

  private CorruptObjectException wrongType(String name, String expected) {
    return new CorruptObjectException(what + ": field \"" + name + "\" must be " + expected);
  }
}
