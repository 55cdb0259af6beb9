package dev.objlog.spring.autoconfigure.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.autoconfigure.FailureAnalyses;
import dev.objlog.store.ConditionalWritesNotHonouredException;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.fault.FaultInjectingObjectStore;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The ObjectStore bean for the local store types, the user's own store, and the self-test. */
class ObjlogStoreAutoConfigurationTests {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ObjlogStoreAutoConfiguration.class));

  @TempDir Path temp;

  @Test
  void filesystemIsTheDefaultStoreAndTheSelfTestLeavesNothingBehind() {
    Path root = temp.resolve("bucket");
    runner.withPropertyValues("objlog.store.filesystem.root=" + root).run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(ObjectStore.class).hasSingleBean(ObjlogStoreSelfTest.class);
      FilesystemObjectStore store = context.getBean(FilesystemObjectStore.class);
      assertThat(store.root()).isEqualTo(root.toRealPath());
      assertThat(store.list("objlog/selftest/", 10).entries()).isEmpty();
    });
    try (Stream<Path> files = Files.walk(root)) {
      assertThat(files.filter(Files::isRegularFile).map(root::relativize).map(Path::toString))
          .noneMatch(p -> p.startsWith("objlog"));
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void memoryStore() {
    runner.withPropertyValues("objlog.store.type=memory").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(ObjectStore.class);
      assertThat(context.getBean(ObjectStore.class)).isInstanceOf(MemoryObjectStore.class);
    });
  }

  @Test
  void storeTypeIsCaseInsensitive() {
    runner.withPropertyValues("objlog.store.type=MEMORY").run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context.getBean(ObjectStore.class)).isInstanceOf(MemoryObjectStore.class);
    });
  }

  @Test
  void blankFilesystemRootIsRefused() {
    runner.withPropertyValues("objlog.store.filesystem.root= ").run(context -> {
      assertThat(context).hasFailed();
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription()).contains("objlog.store.filesystem.root");
    });
  }

  @Test
  void anApplicationStoreWinsAndIsSelfTestedUnderThePrefix() {
    List<String> keys = new CopyOnWriteArrayList<>();
    ObjectStore mine = recordingKeys(new MemoryObjectStore(), keys);
    runner
        .withPropertyValues("objlog.store.type=s3", "objlog.store.prefix=/tenants/a/")
        .withBean("myStore", ObjectStore.class, () -> mine)
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(ObjectStore.class).doesNotHaveBean("objlogObjectStore");
          assertThat(context.getBean(ObjectStore.class)).isSameAs(mine);
          assertThat(context).doesNotHaveBean(ObjlogConnectionDetails.class);
          // The bucket check lists the prefix once; everything else is the self-test's scratch key.
          assertThat(keys).first().isEqualTo("tenants/a/");
          assertThat(keys.subList(1, keys.size())).isNotEmpty().allMatch(k -> k.startsWith("tenants/a/selftest/"));
          assertThat(mine.list("", 10).entries()).isEmpty();
        });
  }

  /** Records the key of every call that has one, then passes it on. */
  private static ObjectStore recordingKeys(ObjectStore delegate, List<String> keys) {
    InvocationHandler handler =
        (proxy, method, args) -> {
          if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
          }
          if (args != null && args.length > 0 && args[0] instanceof String key) {
            keys.add(key);
          } else if (args != null && args.length > 0 && args[0] instanceof Collection<?> many) {
            many.forEach(k -> keys.add((String) k));
          }
          try {
            return method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        };
    return (ObjectStore)
        Proxy.newProxyInstance(ObjectStore.class.getClassLoader(), new Class<?>[] {ObjectStore.class}, handler);
  }

  @Test
  void selfTestCanBeTurnedOff() {
    FaultInjectingObjectStore mine = FaultInjectingObjectStore.builder(new MemoryObjectStore()).build();
    runner
        .withPropertyValues("objlog.store.verify-conditional-writes=false")
        .withBean(ObjectStore.class, () -> mine)
        .run(context -> {
          assertThat(context).hasNotFailed().doesNotHaveBean(ObjlogStoreSelfTest.class);
          // Only the bucket check's one listing: the self-test sent nothing.
          assertThat(mine.requestCounts()).allSatisfy((type, n) ->
              assertThat(n).as(type.toString()).isEqualTo(type == FaultInjectingObjectStore.RequestType.LIST ? 1L : 0L));
        });
  }

  @Test
  void aStoreThatIgnoresConditionsFailsStartupWithAnExplanation() {
    ObjectStore ignoring =
        FaultInjectingObjectStore.builder(new MemoryObjectStore()).dropConditions(true).build();
    runner.withBean(ObjectStore.class, () -> ignoring).run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).isInstanceOf(ConditionalWritesNotHonouredException.class);
      FailureAnalysis analysis = FailureAnalyses.analyze(context.getStartupFailure());
      assertThat(analysis.getDescription())
          .contains("does not honour conditional writes")
          .contains("If-None-Match: *")
          .contains("two writers could both commit");
      assertThat(analysis.getAction())
          .contains("Amazon S3", "MinIO", "filesystem store")
          .contains("objlog.store.verify-conditional-writes=false")
          .contains("does not make the store safe");
    });
  }
}
