package dev.objlog.spring.autoconfigure.actuate;

import dev.objlog.spring.actuate.ObjlogHealthIndicator;
import dev.objlog.spring.actuate.StoreProbe;
import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.actuate.ObjlogListenersHealthIndicator;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.store.ObjectStore;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code objlog} health indicator ({@code management.health.objlog.enabled})
 * and the periodic store probe that feeds it ({@code objlog.health.probe-interval}).
 */
@AutoConfiguration(after = {ObjlogStreamsAutoConfiguration.class, ObjlogListenerAutoConfiguration.class})
@ConditionalOnClass({HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class})
@ConditionalOnBean(ObjlogStreams.class)
@ConditionalOnEnabledHealthIndicator("objlog")
@EnableConfigurationProperties(ObjlogProperties.class)
public final class ObjlogHealthAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "objlogHealthIndicator")
  ObjlogHealthIndicator objlogHealthIndicator(ObjectProvider<ObjlogTemplate> template,
      ObjectProvider<StoreActivity> activity, ObjlogProperties properties) {
    return new ObjlogHealthIndicator(template.getIfUnique(), activity.getIfUnique(StoreActivity::new),
        properties.getHealth().getStoreUnreachableThreshold(), Clock.systemUTC());
  }

  /** DOWN when a listener died (not stopped on purpose). */
  @Bean
  @ConditionalOnMissingBean(name = "objlogListenersHealthIndicator")
  @ConditionalOnBean(ObjlogListenerEndpointRegistry.class)
  ObjlogListenersHealthIndicator objlogListenersHealthIndicator(ObjlogListenerEndpointRegistry registry) {
    return new ObjlogListenersHealthIndicator(registry);
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(StoreActivity.class)
  StoreProbe objlogStoreProbe(ObjectStore store, StoreActivity activity, ObjlogProperties properties) {
    return new StoreProbe(store, properties.getStore().getPrefix(), activity, properties.getHealth().getProbeInterval());
  }
}
