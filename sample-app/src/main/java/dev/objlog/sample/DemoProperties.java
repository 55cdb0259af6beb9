package dev.objlog.sample;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** The sample's demo: {@code objlog.demo.*}. */
@ConfigurationProperties("objlog.demo")
public class DemoProperties {

  /** Whether the narrated demo runs at startup. */
  private boolean enabled = true;

  /** Whether the application exits once the demo has printed its summary. */
  private boolean exit;

  /** The configured stream (objlog.streams.<name>) the demo writes; it needs at least 2 partitions. */
  private String stream = "demo";

  /** How many records the write phase sends. */
  private int records = 200;

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public boolean isExit() {
    return exit;
  }

  public void setExit(boolean exit) {
    this.exit = exit;
  }

  public String getStream() {
    return stream;
  }

  public void setStream(String stream) {
    this.stream = stream;
  }

  public int getRecords() {
    return records;
  }

  public void setRecords(int records) {
    this.records = records;
  }
}
