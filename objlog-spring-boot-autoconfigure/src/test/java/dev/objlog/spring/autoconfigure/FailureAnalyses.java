package dev.objlog.spring.autoconfigure;

import java.util.List;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * Explains a startup failure the way Boot's "APPLICATION FAILED TO START" report does: the
 * analyzers registered in every {@code META-INF/spring.factories}, in their order, first answer
 * wins. Analyzers that need constructor arguments (a bean factory, an environment) are skipped.
 */
public final class FailureAnalyses {
  private FailureAnalyses() {}

  public static FailureAnalysis analyze(Throwable failure) {
    List<FailureAnalyzer> analyzers =
        SpringFactoriesLoader.forDefaultResourceLocation(FailureAnalyses.class.getClassLoader())
            .load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> {}));
    for (FailureAnalyzer analyzer : analyzers) {
      FailureAnalysis analysis = analyzer.analyze(failure);
      if (analysis != null) {
        return analysis;
      }
    }
    throw new AssertionError("no failure analyzer explains " + failure, failure);
  }
}
