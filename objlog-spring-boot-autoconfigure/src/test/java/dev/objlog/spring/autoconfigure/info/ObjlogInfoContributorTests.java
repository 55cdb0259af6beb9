package dev.objlog.spring.autoconfigure.info;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.objlog.spring.autoconfigure.ObjlogProperties;
import dev.objlog.spring.autoconfigure.store.ObjlogStoreAutoConfiguration;
import dev.objlog.store.ObjectStore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The actuator info entry: formats, store, streams by name; never a credential. */
class ObjlogInfoContributorTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class, ObjlogInfoAutoConfiguration.class))
          .withPropertyValues("objlog.store.type=memory");

  @Test
  @SuppressWarnings("unchecked")
  void showsFormatsStoreAndStreamsByName() {
    runner
        .withPropertyValues(
            "objlog.streams.orders.stream-id=shop/orders",
            "objlog.streams.orders.partitions=4",
            "objlog.streams.audit.partitions=1")
        .run(context -> {
          assertThat(context).hasNotFailed().hasSingleBean(ObjlogInfoContributor.class);
          Map<String, Object> objlog = (Map<String, Object>) info(context.getBean(ObjlogInfoContributor.class)).get("objlog");
          assertThat(objlog).containsOnlyKeys("formats", "store", "streams");
          assertThat((Map<String, Object>) objlog.get("formats"))
              .containsExactly(entry("segformat", 2), entry("catformat", 1), entry("keyLayout", 1));
          assertThat((Map<String, Object>) objlog.get("store"))
              .containsEntry("type", "memory")
              .containsEntry("prefix", "objlog")
              .containsKey("description");
          Map<String, Object> streams = (Map<String, Object>) objlog.get("streams");
          assertThat(streams).containsOnlyKeys("orders", "audit");
          assertThat((Map<String, Object>) streams.get("orders"))
              .containsEntry("streamId", "shop/orders")
              .containsEntry("partitions", 4);
          assertThat((Map<String, Object>) streams.get("audit")).containsEntry("streamId", "audit");
        });
  }

  @Test
  void neverShowsCredentials() {
    runner
        .withPropertyValues(
            "objlog.store.type=s3",
            "objlog.store.bucket=logs",
            "objlog.store.verify-conditional-writes=false",
            "objlog.store.verify-bucket=false",
            "objlog.store.s3.endpoint=http://127.0.0.1:9",
            "objlog.store.s3.access-key=AKIA-VISIBLE-NOT",
            "objlog.store.s3.secret-key=s3cr3t-never-shown")
        .run(context -> {
          assertThat(context).hasNotFailed();
          String shown = info(context.getBean(ObjlogInfoContributor.class)).toString();
          assertThat(shown).contains("s3").contains("logs").doesNotContain("s3cr3t-never-shown").doesNotContain("AKIA-VISIBLE-NOT");
        });
  }

  @Test
  void canBeTurnedOff() {
    runner.withPropertyValues("management.info.objlog.enabled=false").run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(ObjlogInfoContributor.class);
    });
  }

  @Test
  void absentWithoutTheActuator() {
    runner.withClassLoader(new FilteredClassLoader(InfoContributor.class)).run(context -> {
      assertThat(context).hasNotFailed().doesNotHaveBean(ObjlogInfoContributor.class);
    });
  }

  @Test
  void anApplicationContributorReplacesIt() {
    ObjlogInfoContributor mine =
        new ObjlogInfoContributor(new ObjlogProperties(), new StaticListableBeanFactory().getBeanProvider(ObjectStore.class));
    runner.withBean("mine", ObjlogInfoContributor.class, () -> mine).run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(ObjlogInfoContributor.class);
      assertThat(context.getBean(ObjlogInfoContributor.class)).isSameAs(mine);
      assertThat(info(mine).toString()).contains("type=filesystem").doesNotContain("description");
    });
  }

  private static Map<String, Object> info(InfoContributor contributor) {
    Info.Builder builder = new Info.Builder();
    contributor.contribute(builder);
    return builder.build().getDetails();
  }
}
