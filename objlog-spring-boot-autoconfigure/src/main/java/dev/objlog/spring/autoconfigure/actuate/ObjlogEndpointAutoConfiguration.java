package dev.objlog.spring.autoconfigure.actuate;

import dev.objlog.spring.actuate.CachedPartitionHeads;
import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.autoconfigure.lifecycle.ObjlogLifecycleAutoConfiguration;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.listener.ObjlogListenerAutoConfiguration;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler;
import dev.objlog.spring.lifecycle.ObjlogMaintenance;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code objlog} actuator endpoint ({@code /actuator/objlog}); it exists
 * when exposed ({@code management.endpoints.web.exposure.include=objlog}). Its write operations
 * (retention, reclaim) use the {@link ObjlogMaintenance} bean and need {@code
 * management.endpoint.objlog.access=unrestricted}.
 */
@AutoConfiguration(after = {ObjlogStreamsAutoConfiguration.class, ObjlogListenerAutoConfiguration.class,
    ObjlogLifecycleAutoConfiguration.class})
@ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnBean(ObjlogStreams.class)
public final class ObjlogEndpointAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnAvailableEndpoint(ObjlogEndpoint.class)
  ObjlogEndpoint objlogEndpoint(ObjlogStreams streams, ObjectProvider<ObjlogTemplate> template,
      ObjectProvider<StoreActivity> activity, ObjectProvider<ObjlogMaintenance> maintenance,
      ObjectProvider<ObjlogListenerEndpointRegistry> listeners, ObjectProvider<CachedPartitionHeads> cachedHeads,
      ObjectProvider<EndpointAccessResolver> access, ObjectProvider<ObjlogLifecycleScheduler> lifecycle) {
    ObjlogEndpoint endpoint = new ObjlogEndpoint(streams, template.getIfUnique(), activity.getIfUnique(StoreActivity::new),
        maintenance.getIfUnique());
    endpoint.setListenerRegistry(listeners.getIfUnique());
    endpoint.setCachedHeads(cachedHeads.getIfUnique());
    endpoint.setLifecycleScheduler(lifecycle.getIfUnique());
    EndpointAccessResolver resolver = access.getIfUnique();
    if (resolver != null) {
      endpoint.setWriteOperations(resolver.accessFor(EndpointId.of("objlog"), Access.READ_ONLY) == Access.UNRESTRICTED);
    }
    return endpoint;
  }
}
