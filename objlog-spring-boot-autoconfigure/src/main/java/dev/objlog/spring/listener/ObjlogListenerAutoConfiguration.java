package dev.objlog.spring.listener;

import dev.objlog.replica.SnapshotStore;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.lifecycle.ConsumerRetentionGate;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.spring.listener.checkpoint.ObjlogCheckpointAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.validation.Validator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of {@code @ObjlogListener}: the annotation processor, the {@link
 * ObjlogListenerEndpointRegistry}, the default {@link ObjlogListenerContainerFactory} (named
 * {@code objlogListenerContainerFactory}, using the application's single {@link
 * ListenerErrorHandler} and {@link MeterRegistry} when there are, and resolving arguments with the
 * {@link ObjlogListenerConfigurer}s' resolvers and the single {@code Validator}) and the {@link
 * RecordPayloadConverter}.
 */
@AutoConfiguration(
    after = {ObjlogStreamsAutoConfiguration.class, ObjlogCheckpointAutoConfiguration.class},
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
      "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration"
    })
@ConditionalOnBean({ObjlogStreams.class, CheckpointRepository.class})
@EnableConfigurationProperties(ObjlogListenerProperties.class)
public final class ObjlogListenerAutoConfiguration {

  @Bean(name = "dev.objlog.spring.listener.internalObjlogListenerAnnotationProcessor")
  @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
  static ObjlogListenerAnnotationBeanPostProcessor objlogListenerAnnotationBeanPostProcessor() {
    return new ObjlogListenerAnnotationBeanPostProcessor();
  }

  @Bean
  @ConditionalOnMissingBean
  ObjlogListenerEndpointRegistry objlogListenerEndpointRegistry() {
    return new ObjlogListenerEndpointRegistry();
  }

  @Bean(name = ObjlogListenerAnnotationBeanPostProcessor.DEFAULT_FACTORY_BEAN_NAME)
  @ConditionalOnMissingBean(name = ObjlogListenerAnnotationBeanPostProcessor.DEFAULT_FACTORY_BEAN_NAME)
  ObjlogListenerContainerFactory objlogListenerContainerFactory(ObjlogStreams streams,
      CheckpointRepository checkpoints, ObjectProvider<RecordPayloadConverter> payloadConverter,
      ObjlogListenerProperties properties, ObjectProvider<ListenerErrorHandler> errorHandler,
      ObjectProvider<MeterRegistry> meterRegistry, ObjectProvider<ObservationRegistry> observationRegistry,
      ObjectProvider<ObjlogListenerObservationConvention> observationConvention,
      ObjectProvider<LeaseStore> leases, ObjectProvider<SnapshotStore> snapshotStore,
      ObjectProvider<ObjlogListenerConfigurer> configurers, ObjectProvider<Validator> validator,
      ConfigurableListableBeanFactory beanFactory, org.springframework.context.ApplicationEventPublisher events) {
    RecordPayloadConverter converter = payloadConverter.getIfAvailable(() -> new DefaultRecordPayloadConverter(null));
    ObjlogListenerContainerFactory factory = new ObjlogListenerContainerFactory(streams, checkpoints, converter,
        properties);
    factory.setMessageHandlerMethodFactory(messageHandlerMethodFactory(converter, configurers, validator, beanFactory));
    errorHandler.ifUnique(factory::setErrorHandler);
    factory.setMeterRegistry(meterRegistry.getIfUnique());
    observationRegistry.ifUnique(factory::setObservationRegistry);
    factory.setObservationConvention(observationConvention.getIfUnique());
    leases.ifUnique(factory::setLeaseStore);
    snapshotStore.ifUnique(factory::setSnapshotStore);
    factory.setApplicationEventPublisher(events);
    return factory;
  }

  /** Resolves listener arguments with the configurers' resolvers and validator (else the single Validator bean). */
  private static ObjlogMessageHandlerMethodFactory messageHandlerMethodFactory(RecordPayloadConverter converter,
      ObjectProvider<ObjlogListenerConfigurer> configurers, ObjectProvider<Validator> validatorBean,
      ConfigurableListableBeanFactory beanFactory) {
    List<HandlerMethodArgumentResolver> resolvers = new ArrayList<>();
    Validator validator = null;
    for (ObjlogListenerConfigurer configurer : configurers.orderedStream().toList()) {
      configurer.configureArgumentResolvers(resolvers);
      if (configurer.getValidator() != null) {
        validator = configurer.getValidator();
      }
    }
    ObjlogMessageHandlerMethodFactory methods = new ObjlogMessageHandlerMethodFactory(converter);
    methods.setCustomArgumentResolvers(resolvers);
    methods.setValidator(validator != null ? validator : validatorBean.getIfUnique());
    methods.setBeanFactory(beanFactory);
    return methods;
  }

  /**
   * Retention never trims past what the streams' configured consumer groups have checkpointed;
   * until-consumed retention also waits for every registered listener container's group.
   */
  @Bean
  @ConditionalOnMissingBean(ConsumerRetentionGate.class)
  CheckpointRetentionGate objlogConsumerRetentionGate(CheckpointRepository checkpoints,
      ObjlogListenerEndpointRegistry listeners) {
    return new CheckpointRetentionGate(checkpoints, listeners);
  }

  /** With Jackson 3: payloads of other types are read as JSON with the application's JsonMapper. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(JsonMapper.class)
  static class JacksonPayloadConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RecordPayloadConverter objlogRecordPayloadConverter(ObjectProvider<JsonMapper> jsonMapper) {
      return new DefaultRecordPayloadConverter(
          new JacksonRecordPayloadConverter(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build())));
    }
  }
}
