package dev.objlog.spring.listener;

import dev.objlog.Header;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.core.ObjlogHeaders;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.handler.annotation.Headers;
import org.springframework.messaging.handler.annotation.Payload;
import org.springframework.util.ReflectionUtils;

/**
 * Calls a listener method with arguments resolved from a record (or a batch): the converted
 * payload, {@code @Header} values ({@link ObjlogHeaders#LSN}, {@link ObjlogHeaders#PARTITION},
 * {@link ObjlogHeaders#TIMESTAMP}, {@link ObjlogHeaders#STREAM}, or a record header by name), a
 * {@code @Headers Map<String, Object>}, the {@link ReadRecord}, an {@link Acknowledgment}, and in
 * batch mode a {@code List} of payloads or of {@code ReadRecord}s. Unsupported signatures fail when
 * the invoker is built, not when the first record arrives.
 *
 * <p>Thread-safety: safe for concurrent use (it holds no per-call state).
 */
public final class ListenerMethodInvoker {

  /** What one call receives. */
  record Call(String streamName, List<ReadRecord> records, @Nullable Acknowledgment acknowledgment) {}

  @FunctionalInterface
  private interface Resolver {
    @Nullable Object resolve(Call call);
  }

  private final Object bean;
  private final Method method;
  private final boolean batch;
  private final List<Resolver> resolvers = new ArrayList<>();
  private final boolean acceptsAcknowledgment;

  /**
   * @throws IllegalArgumentException when a parameter cannot be resolved
   */
  public ListenerMethodInvoker(Object bean, Method method, boolean batch, RecordPayloadConverter converter) {
    this.bean = Objects.requireNonNull(bean, "bean");
    this.method = Objects.requireNonNull(method, "method");
    this.batch = batch;
    ReflectionUtils.makeAccessible(method);
    boolean ack = false;
    int payloads = 0;
    for (Parameter parameter : method.getParameters()) {
      Class<?> type = parameter.getType();
      org.springframework.messaging.handler.annotation.Header header =
          parameter.getAnnotation(org.springframework.messaging.handler.annotation.Header.class);
      if (type == Acknowledgment.class) {
        ack = true;
        resolvers.add(Call::acknowledgment);
      } else if (header != null) {
        if (batch) {
          throw unsupported(parameter, "@Header is not supported in batch mode; take List<ReadRecord> instead");
        }
        String name = !header.name().isEmpty() ? header.name() : header.value();
        if (name.isEmpty()) {
          throw unsupported(parameter, "@Header needs a name");
        }
        boolean required = header.required();
        resolvers.add(call -> {
          Object value = header(call, call.records().get(0), name, type);
          if (value == null && required && type.isPrimitive()) {
            throw new IllegalStateException("missing header " + name + " for parameter " + parameter.getName());
          }
          if (value == null && required) {
            throw new IllegalStateException("missing required header " + name);
          }
          return value;
        });
      } else if (parameter.isAnnotationPresent(Headers.class)) {
        if (batch) {
          throw unsupported(parameter, "@Headers is not supported in batch mode");
        }
        resolvers.add(call -> headers(call, call.records().get(0)));
      } else if (!batch && type == ReadRecord.class) {
        resolvers.add(call -> call.records().get(0));
      } else if (batch) {
        if (type != List.class) {
          throw unsupported(parameter, "batch listeners take a List of payloads or of ReadRecord");
        }
        Type element = elementType(parameter);
        payloads++;
        if (element == ReadRecord.class) {
          resolvers.add(Call::records);
        } else {
          resolvers.add(call -> {
            List<Object> out = new ArrayList<>(call.records().size());
            for (ReadRecord r : call.records()) {
              out.add(converter.fromBytes(r.valueBytes(), element));
            }
            return out;
          });
        }
      } else {
        payloads++;
        Type target = parameter.getParameterizedType();
        Payload payload = parameter.getAnnotation(Payload.class);
        boolean required = payload == null || payload.required();
        resolvers.add(call -> {
          ReadRecord r = call.records().get(0);
          if (r.valueSize() == 0 && !required) {
            return null;
          }
          return converter.fromBytes(r.valueBytes(), target);
        });
      }
    }
    if (payloads > 1) {
      throw new IllegalArgumentException("listener method " + method + " has more than one payload parameter");
    }
    this.acceptsAcknowledgment = ack;
  }

  private IllegalArgumentException unsupported(Parameter parameter, String why) {
    return new IllegalArgumentException("listener method " + method + ", parameter " + parameter.getName() + ": " + why);
  }

  private Type elementType(Parameter parameter) {
    if (parameter.getParameterizedType() instanceof ParameterizedType p) {
      return p.getActualTypeArguments()[0];
    }
    throw unsupported(parameter, "declare the List's element type");
  }

  public boolean acceptsAcknowledgment() {
    return acceptsAcknowledgment;
  }

  public boolean isBatch() {
    return batch;
  }

  public Method method() {
    return method;
  }

  /**
   * Invokes the method.
   *
   * @throws Exception what the method threw (unwrapped), or a conversion failure
   */
  void invoke(Call call) throws Exception {
    Object[] args = new Object[resolvers.size()];
    for (int i = 0; i < args.length; i++) {
      args[i] = resolvers.get(i).resolve(call);
    }
    try {
      method.invoke(bean, args);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Exception ex) {
        throw ex;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw e;
    }
  }

  private static @Nullable Object header(Call call, ReadRecord record, String name, Class<?> type) {
    switch (name) {
      case ObjlogHeaders.LSN:
        return type == String.class ? Long.toUnsignedString(record.lsn()) : record.lsn();
      case ObjlogHeaders.PARTITION:
        return type == String.class ? Integer.toUnsignedString(record.partition()) : record.partition();
      case ObjlogHeaders.TIMESTAMP:
        return type == Instant.class ? Instant.ofEpochMilli(record.timestampMs())
            : type == String.class ? Instant.ofEpochMilli(record.timestampMs()).toString() : record.timestampMs();
      case ObjlogHeaders.STREAM:
        return call.streamName();
      default:
        byte[] value = null;
        for (Header h : record.headers()) {
          if (h.keyAsString().equals(name)) {
            value = h.value(); // the last one wins
          }
        }
        if (value == null) {
          return null;
        }
        return type == byte[].class ? value : new String(value, StandardCharsets.UTF_8);
    }
  }

  private static Map<String, Object> headers(Call call, ReadRecord record) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Header h : record.headers()) {
      out.put(h.keyAsString(), h.valueAsString());
    }
    out.put(ObjlogHeaders.STREAM, call.streamName());
    out.put(ObjlogHeaders.PARTITION, record.partition());
    out.put(ObjlogHeaders.LSN, record.lsn());
    out.put(ObjlogHeaders.TIMESTAMP, record.timestampMs());
    return out;
  }

  @Override
  public String toString() {
    return method.toGenericString();
  }
}
