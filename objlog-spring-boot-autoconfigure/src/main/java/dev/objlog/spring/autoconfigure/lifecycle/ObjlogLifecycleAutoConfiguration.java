package dev.objlog.spring.autoconfigure.lifecycle;

import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.streams.ObjlogStreamsAutoConfiguration;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.lifecycle.ConsumerRetentionGate;
import dev.objlog.spring.lifecycle.ObjlogLifecycleProperties;
import dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler;
import dev.objlog.spring.lifecycle.ObjlogMaintenance;
import dev.objlog.spring.lifecycle.RetentionPolicy;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of retention and reclaim: the {@link ObjlogMaintenance} operations (used by
 * the actuator endpoint's write operations) and, with {@code objlog.lifecycle.enabled=true}, the
 * {@link ObjlogLifecycleScheduler}. Both use the application's {@link Clock} bean when there is
 * exactly one, else the system clock; the scheduler uses the application's {@link
 * ConsumerRetentionGate} bean for the streams' consumer groups.
 */
@AutoConfiguration(after = ObjlogStreamsAutoConfiguration.class)
@ConditionalOnBean(ObjlogStreams.class)
@EnableConfigurationProperties({ObjlogLifecycleProperties.class, ObjlogProperties.class})
public final class ObjlogLifecycleAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  ObjlogMaintenance objlogMaintenance(ObjlogStreams streams, ObjectProvider<ObjlogTemplate> template,
      ObjlogLifecycleProperties properties, ObjectProvider<Clock> clock) {
    return new ObjlogMaintenance(streams, template.getIfUnique(), properties, clock.getIfUnique(Clock::systemUTC));
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBooleanProperty("objlog.lifecycle.enabled")
  ObjlogLifecycleScheduler objlogLifecycleScheduler(ObjlogMaintenance maintenance, ObjlogProperties objlog,
      ObjlogLifecycleProperties properties, ObjectProvider<ConsumerRetentionGate> consumers,
      ObjectProvider<Clock> clock) {
    Map<String, RetentionPolicy> policies = new LinkedHashMap<>();
    objlog.getStreams().forEach((name, stream) -> {
      ObjlogProperties.Retention r = stream.getRetention();
      ObjlogProperties.UntilConsumed u = r.getUntilConsumed();
      if ((r.hasLimit() || u.isEnabled()) && maintenance.streams().find(name).isPresent()) {
        policies.put(name, new RetentionPolicy(r.getMaxAge(), r.getMaxRecords(), r.getConsumerGroups(),
            r.isSnapshotGate(), u.isEnabled()
                ? new RetentionPolicy.UntilConsumed(u.getKeepRecords(), u.getExpireAfter(), u.getWarnAfter())
                : null));
      }
    });
    return new ObjlogLifecycleScheduler(maintenance, policies, consumers.getIfUnique(), properties,
        clock.getIfUnique(Clock::systemUTC));
  }
}
