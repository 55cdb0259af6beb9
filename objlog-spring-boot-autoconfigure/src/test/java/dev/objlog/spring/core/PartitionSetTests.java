package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionSetTests {

  @Test
  void starIsEveryPartition() {
    PartitionSet all = PartitionSet.parse(" * ", 4);
    assertThat(all.isAll()).isTrue();
    assertThat(all.stream()).containsExactly(0, 1, 2, 3);
    assertThat(all).hasToString("*");
  }

  @Test
  void listsAndRanges() {
    PartitionSet set = PartitionSet.parse("0-2, 5,7-7", 8);
    assertThat(set.stream()).containsExactly(0, 1, 2, 5, 7);
    assertThat(set.contains(5)).isTrue();
    assertThat(set.contains(6)).isFalse();
    assertThat(set.contains(-1)).isFalse();
    assertThat(set.contains(8)).isFalse();
    assertThat(set.isAll()).isFalse();
    assertThat(PartitionSet.parse("0-7", 8).isAll()).isTrue();
  }

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(
      delimiter = ';',
      value = {
        "''; empty",
        "0-8; partition 8 in \"0-8\" does not exist: the stream has 8 partitions (0-7)",
        "3-1; runs backwards",
        "a; is not \"*\" or a list",
        "1,,2; is not \"*\" or a list",
        "-1; is not \"*\" or a list",
      })
  void badListsSayWhy(String text, String says) {
    assertThatThrownBy(() -> PartitionSet.parse(text, 8))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining(says);
  }
}
