package dev.objlog.spring.test.example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.test.InMemoryObjlog;
import dev.objlog.spring.test.ObjlogTester;
import dev.objlog.spring.test.TestRecord;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.memory.MemoryObjectStore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Cached contexts do not share records: three {@code @SpringBootTest @InMemoryObjlog} classes run
 * in this order in one JUnit run, so Spring's context cache holds both of their contexts. The first
 * writes three records in context A; the second, whose configuration differs (context B), sees
 * none; the third has A's configuration, so it gets A's cached context back and sees its three
 * records, which shows the cache was in play.
 */
class InMemoryObjlogIsolationTests {
  private static final String RUN_BY_THIS_TEST = "objlog.test.isolation";

  @Test
  void recordsWrittenInOneCachedContextAreNotInAnother() {
    EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
        .configurationParameter(RUN_BY_THIS_TEST, "true")
        .configurationParameter("junit.jupiter.testclass.order.default", ClassOrderer.OrderAnnotation.class.getName())
        .selectors(selectClass(WritesInContextA.class), selectClass(ReadsInContextB.class),
            selectClass(ReadsInContextAAgain.class))
        .execute();
    results.testEvents().failed().stream().forEach(failure -> {
      throw new AssertionError(failure.getTestDescriptor().getDisplayName() + " failed",
          failure.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable()
              .orElse(null));
    });
    results.testEvents().assertStatistics(stats -> stats.started(3).succeeded(3));
  }

  /** Runs the classes below only inside {@link #recordsWrittenInOneCachedContextAreNotInAnother}. */
  static final class OnlyInTheIsolationRun implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getConfigurationParameter(RUN_BY_THIS_TEST).isPresent()
          ? ConditionEvaluationResult.enabled("run by InMemoryObjlogIsolationTests")
          : ConditionEvaluationResult.disabled("run by InMemoryObjlogIsolationTests in a given order");
    }
  }

  @SpringBootTest(properties = "isolation.context=a")
  @InMemoryObjlog
  @ExtendWith(OnlyInTheIsolationRun.class)
  @Order(1)
  static class WritesInContextA {
    @Autowired ObjlogTemplate template;
    @Autowired ObjlogTester objlog;
    @Autowired ObjectStore store;

    @Test
    void writesThreeRecords() throws Exception {
      assertThat(store).isInstanceOf(MemoryObjectStore.class);
      for (String value : new String[] {"a1", "a2", "a3"}) {
        template.send("orders", 0, value).get(30, TimeUnit.SECONDS);
      }
      assertThat(objlog.readAll("orders")).extracting(TestRecord::valueAsString).containsExactly("a1", "a2", "a3");
    }
  }

  @SpringBootTest(properties = "isolation.context=b")
  @InMemoryObjlog
  @ExtendWith(OnlyInTheIsolationRun.class)
  @Order(2)
  static class ReadsInContextB {
    @Autowired ObjlogTester objlog;

    @Test
    void seesNoRecords() {
      assertThat(objlog.readAll("orders")).isEmpty();
    }
  }

  @SpringBootTest(properties = "isolation.context=a")
  @InMemoryObjlog
  @ExtendWith(OnlyInTheIsolationRun.class)
  @Order(3)
  static class ReadsInContextAAgain {
    @Autowired ObjlogTester objlog;

    @Test
    void seesTheRecordsOfContextA() {
      assertThat(objlog.readAll("orders")).extracting(TestRecord::valueAsString).containsExactly("a1", "a2", "a3");
    }
  }
}
