package dev.objlog.spring.listener;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * Holds the listener containers by listener id, starts those with auto-startup with the context
 * and stops all of them first on shutdown (before the template and logs close). Start, stop, pause
 * and resume single listeners by id; {@link #isInExpectedState(String)} tells a listener stopped
 * on purpose from one that died.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public class ObjlogListenerEndpointRegistry implements SmartLifecycle {
  /** Phase: started late and stopped early, around the template's users. */
  public static final int PHASE = Integer.MAX_VALUE - 1000;

  private final Map<String, ObjlogListenerContainer> containers = new ConcurrentSkipListMap<>();
  private final Set<String> ids = ConcurrentHashMap.newKeySet();
  private volatile boolean running;

  /**
   * Creates the endpoint's container with {@code factory} and registers it; starts it when
   * {@code startImmediately} (or when the registry is running and the endpoint auto-starts).
   *
   * @throws IllegalStateException when a listener with the same id is registered
   */
  public ObjlogListenerContainer registerListenerContainer(ObjlogListenerEndpoint endpoint,
      ObjlogListenerContainerFactory factory, boolean startImmediately) {
    if (!ids.add(endpoint.getId())) {
      throw new IllegalStateException("two listeners have the id \"" + endpoint.getId() + "\"");
    }
    ObjlogListenerContainer container = factory.createContainer(endpoint);
    containers.put(endpoint.getId(), container);
    if (startImmediately || (running && endpoint.isAutoStartup())) {
      container.start();
    }
    return container;
  }

  public @Nullable ObjlogListenerContainer getListenerContainer(String id) {
    return containers.get(id);
  }

  public Set<String> getListenerContainerIds() {
    return containers.keySet();
  }

  public Collection<ObjlogListenerContainer> getListenerContainers() {
    return List.copyOf(containers.values());
  }

  public void start(String id) {
    container(id).start();
  }

  public void stop(String id) {
    container(id).stop();
  }

  public void pause(String id) {
    container(id).pause();
  }

  public void resume(String id) {
    container(id).resume();
  }

  /** Whether the listener is what it was asked to be (running without failed partitions, or stopped). */
  public boolean isInExpectedState(String id) {
    return container(id).isInExpectedState();
  }

  private ObjlogListenerContainer container(String id) {
    ObjlogListenerContainer c = containers.get(id);
    if (c == null) {
      throw new IllegalArgumentException("no listener with id \"" + id + "\"; listeners: " + containers.keySet());
    }
    return c;
  }

  @Override
  public void start() {
    running = true;
    for (ObjlogListenerContainer c : containers.values()) {
      if (c.isAutoStartup()) {
        c.start();
      }
    }
  }

  @Override
  public void stop() {
    running = false;
    containers.values().parallelStream().forEach(ObjlogListenerContainer::stop);
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
