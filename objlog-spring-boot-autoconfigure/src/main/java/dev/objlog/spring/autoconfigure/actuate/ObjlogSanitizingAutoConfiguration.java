package dev.objlog.spring.autoconfigure.actuate;

import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Masks objlog's store credentials in the actuator's {@code env} and {@code configprops}
 * endpoints, even with {@code show-values: always}: the S3 secret key, the Azure account key,
 * connection string and the SAS token of an endpoint, and the location of the GCS credentials.
 *
 * <p>Spring Boot shows every value once {@code show-values} is {@code always} unless a {@link
 * SanitizingFunction} masks it, and it no longer guesses by key names; so the starter names its own
 * secret keys. Keys are compared after dropping case and every '.', '-', '_' and '[', so the
 * relaxed forms ({@code objlog.store.s3.secretKey} in configprops, {@code
 * OBJLOG_STORE_S3_SECRETKEY} in the environment) are caught too, and so are values nested below a
 * key (a {@code Resource} shown as an object).
 *
 * <p>Thread-safety: a configuration class; the function it registers is immutable.
 */
@AutoConfiguration
@ConditionalOnClass(SanitizingFunction.class)
public final class ObjlogSanitizingAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "objlogSanitizingFunction")
  SanitizingFunction objlogSanitizingFunction() {
    return new StoreSecretsSanitizer();
  }
}
