package dev.objlog.spring.test;

import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@link ObjlogTester} of a test context, once the streams exist. Imported by {@link
 * AutoConfigureObjlogTester} (and so by {@link InMemoryObjlog} and {@link ObjlogTest}), never
 * listed for applications.
 */
@AutoConfiguration(after = {ObjlogStreamsAutoConfiguration.class, ObjlogListenerAutoConfiguration.class})
@ConditionalOnBean(ObjlogStreams.class)
public final class ObjlogTesterAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ObjlogTester objlogTester(ObjlogStreams streams, ObjectProvider<ObjlogListenerEndpointRegistry> listeners,
      ObjectProvider<CheckpointRepository> checkpoints) {
    return new ObjlogTester(streams, listeners.getIfUnique(), checkpoints.getIfUnique());
  }
}
