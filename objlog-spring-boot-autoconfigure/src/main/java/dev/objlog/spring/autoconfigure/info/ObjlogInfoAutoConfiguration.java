package dev.objlog.spring.autoconfigure.info;

import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.store.ObjectStore;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link ObjlogInfoContributor} when the actuator is on the classpath;
 * {@code management.info.objlog.enabled=false} turns it off.
 */
@AutoConfiguration(after = ObjlogStoreAutoConfiguration.class)
@ConditionalOnClass({InfoContributor.class, ConditionalOnEnabledInfoContributor.class})
@EnableConfigurationProperties(ObjlogProperties.class)
public final class ObjlogInfoAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnEnabledInfoContributor("objlog")
  ObjlogInfoContributor objlogInfoContributor(ObjlogProperties properties, ObjectProvider<ObjectStore> store) {
    return new ObjlogInfoContributor(properties, store);
  }
}
