package dev.objlog.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns an {@link ObjlogConfigurationException} into Boot's "APPLICATION FAILED TO START" report. */
class ObjlogConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<ObjlogConfigurationException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, ObjlogConfigurationException cause) {
    return new FailureAnalysis(
        "Invalid objlog configuration: " + cause.getProperty() + ": " + cause.getProblem(),
        cause.getAction(),
        cause);
  }
}
