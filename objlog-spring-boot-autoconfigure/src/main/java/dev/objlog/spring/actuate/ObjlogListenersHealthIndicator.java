package dev.objlog.spring.actuate;

import dev.objlog.spring.listener.ObjlogListenerContainer;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code objlogListeners} health indicator: DOWN when a listener is not in the state it was
 * asked to be in (a partition died: its method kept failing without recovery, its checkpoint could
 * not be used, or its save conflicted); a listener stopped on purpose is not DOWN. Reads cached
 * state only.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public class ObjlogListenersHealthIndicator implements HealthIndicator {
  private final ObjlogListenerEndpointRegistry registry;

  public ObjlogListenersHealthIndicator(ObjlogListenerEndpointRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public Health health() {
    boolean down = false;
    Map<String, Object> states = new LinkedHashMap<>();
    for (ObjlogListenerContainer container : registry.getListenerContainers()) {
      states.put(container.getListenerId(), container.getState());
      down |= !container.isInExpectedState();
    }
    return (down ? Health.down() : Health.up()).withDetail("listeners", states).build();
  }
}
