package dev.objlog.spring.listener;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.convert.ConversionService;
import org.springframework.format.support.DefaultFormattingConversionService;
import org.springframework.messaging.converter.MessageConverter;
import org.springframework.messaging.handler.annotation.support.DefaultMessageHandlerMethodFactory;
import org.springframework.messaging.handler.annotation.support.HeadersMethodArgumentResolver;
import org.springframework.messaging.handler.annotation.support.MessageMethodArgumentResolver;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.validation.Validator;

/**
 * Spring-messaging's {@link DefaultMessageHandlerMethodFactory} set up for listener methods, which
 * are invoked with a {@link RecordMessage}. Its argument resolvers, in order: {@code @Header}
 * (objlog's headers and record headers, then Spring's conversion to the parameter's type), {@code
 * @Headers}, {@code Message<T>}, {@link Acknowledgment}, {@link dev.objlog.read.ReadRecord}, the
 * {@link #setCustomArgumentResolvers custom resolvers} (for instance from {@link
 * ObjlogListenerConfigurer} beans), and last the payload: the record's value read by the {@link
 * RecordPayloadConverter}, validated by the {@link #setValidator validator} when the parameter has
 * {@code @Valid} or {@code @Validated}.
 *
 * <p>The auto-configured container factory builds one from the application's {@code
 * RecordPayloadConverter}, {@code ObjlogListenerConfigurer}s and {@code Validator}; set another on
 * a factory with {@link ObjlogListenerContainerFactory#setMessageHandlerMethodFactory}.
 *
 * <p>Thread-safety: configure it, then {@link #afterPropertiesSet()}, on one thread; creating
 * handler methods is then safe for concurrent use.
 */
public class ObjlogMessageHandlerMethodFactory extends DefaultMessageHandlerMethodFactory {
  private final RecordPayloadConverter payloadConverter;
  private final MessageConverter messageConverter;
  private ConversionService conversionService = new DefaultFormattingConversionService();
  private @Nullable Validator validator;
  private List<HandlerMethodArgumentResolver> customResolvers = List.of();
  private @Nullable ConfigurableBeanFactory beanFactory;
  private volatile List<HandlerMethodArgumentResolver> resolvers = List.of();

  public ObjlogMessageHandlerMethodFactory(RecordPayloadConverter payloadConverter) {
    this.payloadConverter = Objects.requireNonNull(payloadConverter, "payloadConverter");
    this.messageConverter = new RecordArgumentResolvers.PayloadConverter(payloadConverter);
    super.setMessageConverter(messageConverter);
    super.setConversionService(conversionService);
  }

  /** Converts {@code @Header} values to parameter types (default: a {@code DefaultFormattingConversionService}). */
  @Override
  public void setConversionService(ConversionService conversionService) {
    this.conversionService = Objects.requireNonNull(conversionService, "conversionService");
    super.setConversionService(conversionService);
  }

  /**
   * Not supported: payloads are always read by the {@link RecordPayloadConverter} (define a bean
   * of that type to change how).
   */
  @Override
  public void setMessageConverter(MessageConverter messageConverter) {
    throw new UnsupportedOperationException("listener payloads are read by the RecordPayloadConverter;"
        + " define a RecordPayloadConverter bean instead");
  }

  /** Validates payload parameters annotated {@code @Valid} or {@code @Validated}; null: none. */
  @Override
  public void setValidator(@Nullable Validator validator) {
    this.validator = validator;
    super.setValidator(validator);
  }

  /** Resolvers tried after objlog's and before the payload. */
  @Override
  public void setCustomArgumentResolvers(List<HandlerMethodArgumentResolver> customArgumentResolvers) {
    this.customResolvers = List.copyOf(customArgumentResolvers);
    super.setCustomArgumentResolvers(customArgumentResolvers);
  }

  /**
   * Not supported: replacing every resolver would lose the record's payload and objlog's headers;
   * add yours with {@link #setCustomArgumentResolvers}.
   */
  @Override
  public void setArgumentResolvers(List<HandlerMethodArgumentResolver> argumentResolvers) {
    throw new UnsupportedOperationException("add resolvers with setCustomArgumentResolvers"
        + " (or an ObjlogListenerConfigurer bean)");
  }

  /** Resolves {@code ${...}} and {@code #{...}} in {@code @Header} default values. */
  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beanFactory = beanFactory instanceof ConfigurableBeanFactory c ? c : null;
    super.setBeanFactory(beanFactory);
  }

  @Override
  protected List<HandlerMethodArgumentResolver> initArgumentResolvers() {
    List<HandlerMethodArgumentResolver> list = new ArrayList<>();
    list.add(new RecordArgumentResolvers.RecordHeaderResolver(conversionService, beanFactory));
    list.add(new HeadersMethodArgumentResolver());
    list.add(new MessageMethodArgumentResolver(messageConverter));
    list.add(new RecordArgumentResolvers.AcknowledgmentResolver());
    list.add(new RecordArgumentResolvers.ReadRecordResolver());
    list.addAll(customResolvers);
    list.add(new RecordArgumentResolvers.RecordPayloadResolver(payloadConverter, validator));
    resolvers = List.copyOf(list);
    return list;
  }

  /** The resolvers in the order they are tried; empty before {@link #afterPropertiesSet()}. */
  List<HandlerMethodArgumentResolver> argumentResolvers() {
    return resolvers;
  }
}
