package dev.objlog.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Runs the sample: with no configuration it keeps the log in {@code ./objlog-data}, runs the
 * narrated demo, and serves {@code /events} and the actuator on port 8080.
 * {@code --objlog.demo.exit=true} stops it once the demo has printed its summary.
 */
@SpringBootApplication
@EnableConfigurationProperties(DemoProperties.class)
public class SampleApplication {

  public static void main(String[] args) {
    ConfigurableApplicationContext context = SpringApplication.run(SampleApplication.class, args);
    if (context.getBean(DemoProperties.class).isExit()) {
      System.exit(SpringApplication.exit(context));
    }
  }
}
