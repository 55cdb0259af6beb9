package dev.objlog.spring.autoconfigure.console;

import dev.objlog.spring.actuate.CachedPartitionHeads;
import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.store.Ticker;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The objlog console's shared state in the application context: the {@link CachedPartitionHeads}
 * that the {@code objlog} endpoint serves to the page ({@code ?heads=cached}). The page itself and
 * its write guard are registered in the management context ({@link
 * ObjlogConsoleManagementContextConfiguration}), so they follow {@code management.server.port}.
 *
 * <p>On in servlet web applications when the {@code objlog} endpoint is exposed over HTTP;
 * {@code objlog.console.enabled=false} turns it off.
 */
@AutoConfiguration(after = ObjlogStreamsAutoConfiguration.class)
@ConditionalOnClass({DispatcherServlet.class, ConditionalOnAvailableEndpoint.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBean(ObjlogStreams.class)
@ConditionalOnProperty(prefix = "objlog.console", name = "enabled", havingValue = "true", matchIfMissing = true)
@ConditionalOnAvailableEndpoint(endpoint = ObjlogEndpoint.class, exposure = EndpointExposure.WEB)
@EnableConfigurationProperties(ObjlogConsoleProperties.class)
public final class ObjlogConsoleAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  CachedPartitionHeads objlogConsoleHeads(ObjlogStreams streams, ObjectProvider<StoreActivity> activity,
      ObjectProvider<Ticker> ticker, ObjlogConsoleProperties properties) {
    return new CachedPartitionHeads(streams, activity.getIfUnique(StoreActivity::new), properties.getRefresh(),
        ticker.getIfUnique(() -> Ticker.SYSTEM), Clock.systemUTC());
  }
}
