package dev.objlog.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CiTests {
  @ParameterizedTest
  @ValueSource(strings = {"true", "TRUE", "True", "1", "yes", "YES", "Yes", " true "})
  void ciValuesThatMeanYesAreRecognised(String value) {
    assertThat(Ci.isCiValue(value)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "false", "0", "no", "y", "on", "truthy"})
  void otherValuesMeanADevelopersMachine(String value) {
    assertThat(Ci.isCiValue(value)).isFalse();
  }

  @org.junit.jupiter.api.Test
  void anUnsetVariableMeansADevelopersMachine() {
    assertThat(Ci.isCiValue(null)).isFalse();
  }
}
