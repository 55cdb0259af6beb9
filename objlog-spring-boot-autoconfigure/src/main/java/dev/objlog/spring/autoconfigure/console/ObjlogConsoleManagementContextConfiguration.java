package dev.objlog.spring.autoconfigure.console;

import dev.objlog.spring.actuate.ObjlogEndpoint;
import dev.objlog.spring.actuate.console.ConsoleAsset;
import dev.objlog.spring.actuate.console.ConsoleWriteGuard;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.handler.MappedInterceptor;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;

/**
 * The console page and its write guard, in the management context (the application's own when
 * the actuator shares its port, a child context on {@code management.server.port}), at the
 * {@code objlog} endpoint's path plus {@code /console}: {@code /actuator/objlog/console} by
 * default. Being under the endpoint's path, the page falls under whatever security protects the
 * endpoint ({@code EndpointRequest.to("objlog")} matches it too).
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = "objlog.console", name = "enabled", havingValue = "true", matchIfMissing = true)
@ConditionalOnAvailableEndpoint(endpoint = ObjlogEndpoint.class, exposure = EndpointExposure.WEB)
class ObjlogConsoleManagementContextConfiguration {
  /** Before the endpoint's own mapping (order -100), which would take {@code console/x.js} for a partition. */
  private static final int ORDER = -200;

  @Bean
  SimpleUrlHandlerMapping objlogConsoleHandlerMapping(PathMappedEndpoints endpoints,
      ObjectProvider<ObjlogEndpoint> endpoint) {
    String console = consolePath(endpoints);
    Map<String, Object> urls = new LinkedHashMap<>();
    // No endpoint bean (no objlog streams in this application): no page either.
    for (ConsoleAsset asset : endpoint.getIfAvailable() == null ? List.<ConsoleAsset>of() : ConsoleAsset.ALL) {
      urls.put(console + "/" + asset.name(), asset);
      if (asset.name().equals("index.html")) {
        urls.put(console, asset);
      }
    }
    return new SimpleUrlHandlerMapping(urls, ORDER);
  }

  @Bean
  MappedInterceptor objlogConsoleWriteGuard(PathMappedEndpoints endpoints) {
    String endpoint = endpoints.getPath(EndpointId.of("objlog"));
    return new MappedInterceptor(new String[] {endpoint, endpoint + "/**"}, new ConsoleWriteGuard());
  }

  private static String consolePath(PathMappedEndpoints endpoints) {
    return endpoints.getPath(EndpointId.of("objlog")) + "/console";
  }
}
