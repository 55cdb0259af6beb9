package dev.objlog.spring.autoconfigure.console;

import dev.objlog.spring.autoconfigure.ObjlogConfigurationException;
import java.time.Duration;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code objlog.console.*} properties: the read-only web page served beside the {@code objlog}
 * actuator endpoint.
 *
 * <p>Thread-safety: a mutable binding target; Spring binds it on one thread during startup, after
 * which it is only read.
 */
@ConfigurationProperties("objlog.console")
public class ObjlogConsoleProperties implements InitializingBean {

  /**
   * Whether the console page is served (under the objlog endpoint's path, when that endpoint is
   * exposed over HTTP in a servlet application).
   */
  private boolean enabled = true;

  /**
   * The longest the console's view of a partition head is served without reading it again: any
   * number of open pages costs the store at most one head read per partition per interval.
   */
  private Duration refresh = Duration.ofSeconds(5);

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getRefresh() {
    return refresh;
  }

  public void setRefresh(Duration refresh) {
    this.refresh = refresh;
  }

  /** A refresh of zero or less would read every head on every request: refused at startup. */
  @Override
  public void afterPropertiesSet() {
    if (refresh.isNegative() || refresh.isZero()) {
      throw new ObjlogConfigurationException("objlog.console.refresh", "the console refresh " + refresh
          + " is not positive.", "Set objlog.console.refresh to a positive duration such as 5s (the default).");
    }
  }
}
