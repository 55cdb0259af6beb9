package dev.objlog.spring.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.MapPropertySource;

/** Which keys the starter's {@link SanitizingFunction} masks, in each form Boot passes them. */
class ObjlogSanitizingFunctionTests {
  private final SanitizingFunction function = new StoreSecretsSanitizer();

  private Object sanitized(String key, Object value) {
    return function.apply(new SanitizableData(new MapPropertySource("test", java.util.Map.of()), key, value))
        .getValue();
  }

  @Test
  void secretKeysAreMaskedInEveryRelaxedForm() {
    List<String> keys = List.of("objlog.store.s3.secret-key", "objlog.store.s3.secretKey",
        "OBJLOG_STORE_S3_SECRETKEY", "OBJLOG_STORE_S3_SECRET_KEY", "objlog.store.azure.account-key",
        "objlog.store.azure.accountKey", "OBJLOG_STORE_AZURE_ACCOUNTKEY", "objlog.store.azure.connection-string",
        "objlog.store.azure.connectionString", "objlog.store.gcs.credentials-location",
        "objlog.store.gcs.credentialsLocation.description", "OBJLOG_STORE_GCS_CREDENTIALSLOCATION");
    for (String key : keys) {
      assertThat(sanitized(key, "hunter2")).as(key).isEqualTo(SanitizableData.SANITIZED_VALUE);
    }
  }

  @Test
  void theSasTokenOfAnAzureEndpointIsMaskedAndTheRestShown() {
    assertThat(sanitized("objlog.store.azure.endpoint", "https://acct.blob.core.windows.net/?sv=2023&sig=abc%3D"))
        .isEqualTo("https://acct.blob.core.windows.net/?******");
    assertThat(sanitized("OBJLOG_STORE_AZURE_ENDPOINT", "https://acct.blob.core.windows.net/?sig=x"))
        .isEqualTo("https://acct.blob.core.windows.net/?******");
    assertThat(sanitized("objlog.store.azure.endpoint", "https://acct.blob.core.windows.net"))
        .isEqualTo("https://acct.blob.core.windows.net");
  }

  @Test
  void identifiersAndOtherPropertiesStayVisible() {
    for (String key : List.of("objlog.store.s3.access-key", "objlog.store.azure.account-name", "objlog.store.bucket",
        "objlog.store.gcs.project-id", "objlog.store.s3.endpoint", "spring.datasource.password", "objlog.store.type")) {
      assertThat(sanitized(key, "visible")).as(key).isEqualTo("visible");
    }
  }

  @Test
  void theBeanExistsWithTheActuatorAndBacksOffForOneOfTheSameName() {
    ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ObjlogSanitizingAutoConfiguration.class));
    runner.run(context -> assertThat(context).hasBean("objlogSanitizingFunction"));
    SanitizingFunction mine = data -> data;
    runner.withBean("objlogSanitizingFunction", SanitizingFunction.class, () -> mine)
        .run(context -> assertThat(context.getBean("objlogSanitizingFunction")).isSameAs(mine));
  }
}
