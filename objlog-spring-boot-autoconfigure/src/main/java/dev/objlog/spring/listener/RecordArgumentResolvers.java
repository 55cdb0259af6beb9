package dev.objlog.spring.listener;

import dev.objlog.Header;
import dev.objlog.read.ReadRecord;
import dev.objlog.spring.core.ObjlogConversionException;
import dev.objlog.spring.core.ObjlogHeaders;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.core.convert.ConversionService;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.converter.MessageConversionException;
import org.springframework.messaging.converter.SmartMessageConverter;
import org.springframework.messaging.handler.annotation.Payload;
import org.springframework.messaging.handler.annotation.support.HeaderMethodArgumentResolver;
import org.springframework.messaging.handler.annotation.support.PayloadMethodArgumentResolver;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.messaging.handler.invocation.MethodArgumentResolutionException;
import org.springframework.util.StringUtils;
import org.springframework.validation.Validator;

/**
 * The argument resolvers that know {@link RecordMessage}s, which {@link
 * ObjlogMessageHandlerMethodFactory} puts around spring-messaging's own. Each keeps a meaning the
 * listener arguments had before they were resolved through spring-messaging: objlog's headers
 * typed by the parameter, record header values as raw bytes for {@code byte[]}, a payload read
 * from the record's value by the {@link RecordPayloadConverter} with the parameter's generic type.
 *
 * <p>Thread-safety: every resolver here is stateless (or caches as spring-messaging's do) and
 * safe for concurrent use.
 */
final class RecordArgumentResolvers {
  private RecordArgumentResolvers() {}

  /** The record's value through the {@link RecordPayloadConverter}; a conversion failure as MessageConversionException. */
  static Object convert(RecordPayloadConverter converter, Message<?> message, byte[] value, Type target) {
    try {
      return converter.fromBytes(value, target);
    } catch (ObjlogConversionException e) {
      throw new MessageConversionException(message, e.getMessage(), e);
    }
  }

  /** Spring-messaging's converter for {@code Message<T>} parameters, over the RecordPayloadConverter. */
  static final class PayloadConverter implements SmartMessageConverter {
    private final RecordPayloadConverter converter;

    PayloadConverter(RecordPayloadConverter converter) {
      this.converter = converter;
    }

    @Override
    public @Nullable Object fromMessage(Message<?> message, Class<?> targetClass) {
      return fromMessage(message, targetClass, null);
    }

    @Override
    public @Nullable Object fromMessage(Message<?> message, Class<?> targetClass, @Nullable Object conversionHint) {
      Object payload = message.getPayload();
      if (!(payload instanceof byte[] bytes)) {
        return targetClass.isInstance(payload) ? payload : null;
      }
      Type target = targetClass;
      if (conversionHint instanceof MethodParameter parameter) {
        ResolvableType type = ResolvableType.forMethodParameter(parameter);
        if (Message.class.isAssignableFrom(type.toClass())) {
          type = type.getGeneric(0); // Message<Order>: the payload's type, generics included
        }
        if (type.resolve() != null) {
          target = type.getType();
        }
      }
      return convert(converter, message, bytes, target);
    }

    @Override
    public @Nullable Message<?> toMessage(Object payload, @Nullable MessageHeaders headers) {
      return null; // listeners only read
    }

    @Override
    public @Nullable Message<?> toMessage(Object payload, @Nullable MessageHeaders headers,
        @Nullable Object conversionHint) {
      return null;
    }
  }

  /** {@code @Header}: objlog's headers and record headers typed as before; other types converted by Spring. */
  static final class RecordHeaderResolver extends HeaderMethodArgumentResolver {
    RecordHeaderResolver(ConversionService conversionService, @Nullable ConfigurableBeanFactory beanFactory) {
      super(conversionService, beanFactory);
    }

    @Override
    protected @Nullable Object resolveArgumentInternal(MethodParameter parameter, Message<?> message, String name)
        throws Exception {
      if (message instanceof RecordMessage record && !record.isBatch()) {
        Object value = header(record, name, parameter.getNestedParameterType());
        if (value != null) {
          return value;
        }
      }
      return super.resolveArgumentInternal(parameter, message, name);
    }

    @Override
    protected void handleMissingValue(String name, MethodParameter parameter, Message<?> message) {
      // A resolution failure (not retried): the record will never carry the header.
      throw new MethodArgumentResolutionException(message, parameter, "missing required header " + name);
    }

    private static @Nullable Object header(RecordMessage message, String name, Class<?> type) {
      ReadRecord record = message.record();
      switch (name) {
        case ObjlogHeaders.LSN:
          return type == String.class ? Long.toUnsignedString(record.lsn()) : record.lsn();
        case ObjlogHeaders.PARTITION:
          return type == String.class ? Integer.toUnsignedString(record.partition()) : record.partition();
        case ObjlogHeaders.TIMESTAMP:
          return type == Instant.class ? Instant.ofEpochMilli(record.timestampMs())
              : type == String.class ? Instant.ofEpochMilli(record.timestampMs()).toString() : record.timestampMs();
        case ObjlogHeaders.STREAM:
          return message.streamName();
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
          return type == byte[].class ? value : new String(value, java.nio.charset.StandardCharsets.UTF_8);
      }
    }
  }

  /** The {@link Acknowledgment} of MANUAL mode. */
  static final class AcknowledgmentResolver implements HandlerMethodArgumentResolver {
    @Override
    public boolean supportsParameter(MethodParameter parameter) {
      return parameter.getParameterType() == Acknowledgment.class;
    }

    @Override
    public @Nullable Object resolveArgument(MethodParameter parameter, Message<?> message) {
      return message instanceof RecordMessage record ? record.acknowledgment() : null;
    }
  }

  /** The raw {@link ReadRecord} of a record listener. */
  static final class ReadRecordResolver implements HandlerMethodArgumentResolver {
    @Override
    public boolean supportsParameter(MethodParameter parameter) {
      return parameter.getParameterType() == ReadRecord.class;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, Message<?> message) {
      if (message instanceof RecordMessage record) {
        return record.record();
      }
      throw new MethodArgumentResolutionException(message, parameter, "a ReadRecord needs an objlog RecordMessage");
    }
  }

  /**
   * The payload: every parameter no other resolver takes. A record's value converted to the
   * parameter's generic type ({@code @Payload(required = false)} and an empty value: null); a
   * batch's values converted to the {@code List}'s element type, or the {@code List<ReadRecord>}
   * itself. Validated as spring-messaging validates payloads ({@code @Valid}, {@code @Validated}).
   */
  static final class RecordPayloadResolver extends PayloadMethodArgumentResolver {
    private final RecordPayloadConverter converter;

    RecordPayloadResolver(RecordPayloadConverter converter, @Nullable Validator validator) {
      super(new PayloadConverter(converter), validator, true);
      this.converter = converter;
    }

    @Override
    public @Nullable Object resolveArgument(MethodParameter parameter, Message<?> message) throws Exception {
      if (!(message instanceof RecordMessage record)) {
        return super.resolveArgument(parameter, message);
      }
      Payload payload = parameter.getParameterAnnotation(Payload.class);
      if (payload != null && StringUtils.hasText(payload.expression())) {
        throw new IllegalStateException("@Payload expressions are not supported by objlog listeners: " + parameter);
      }
      if (record.isBatch()) {
        Type element = elementType(parameter);
        if (element == ReadRecord.class) {
          return record.records();
        }
        List<Object> out = new ArrayList<>(record.records().size());
        for (ReadRecord r : record.records()) {
          Object value = convert(converter, message, r.valueBytes(), element);
          validate(message, parameter, value);
          out.add(value);
        }
        return out;
      }
      ReadRecord r = record.record();
      if (r.valueSize() == 0 && payload != null && !payload.required()) {
        return null;
      }
      Object value = convert(converter, message, r.valueBytes(), parameter.getGenericParameterType());
      validate(message, parameter, value);
      return value;
    }

    /** A batch listener's {@code List<T>}: T (checked when the listener is built). */
    static @Nullable Type elementType(MethodParameter parameter) {
      if (parameter.getParameterType() == List.class
          && parameter.getGenericParameterType() instanceof ParameterizedType p) {
        return p.getActualTypeArguments()[0];
      }
      return null;
    }
  }
}
