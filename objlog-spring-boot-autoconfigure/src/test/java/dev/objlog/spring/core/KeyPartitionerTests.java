package dev.objlog.spring.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The key hash is a published contract: these exact values must never change. */
class KeyPartitionerTests {

  @ParameterizedTest(name = "\"{0}\" -> {1}")
  @CsvSource(
      delimiter = ';',
      value = {
        "''; ef46db3751d8e999; 1; 0; 9",
        "a; d24ec4f1a98c6e5b; 3; 2; 11",
        "order-42; b5623ec0a2fa4fce; 6; 0; 14",
        "customer-7; af814f0f339edeff; 7; 1; 15",
        "héllo; 3bd06310388ebbe4; 4; 2; 4",
        "日本; 80c2e40b8486afab; 3; 0; 11",
      })
  void hashAndPartitionsAreTheDocumentedOnes(String key, String hex, int of8, int of3, int of16) {
    assertThat(Long.toHexString(KeyPartitioner.hash(key))).isEqualTo(hex);
    assertThat(KeyPartitioner.partition(key, 8)).isEqualTo(of8);
    assertThat(KeyPartitioner.partition(key, 3)).isEqualTo(of3);
    assertThat(KeyPartitioner.partition(key, 16)).isEqualTo(of16);
    assertThat(KeyPartitioner.partition(key, 1)).isZero();
  }

  @Test
  void isXxh64WithSeedZeroOfTheUtf8Bytes() {
    LongHashFunction reference = LongHashFunction.xx(0);
    for (int i = 0; i < 1000; i++) {
      String key = "key-" + i + "-\u00e9".repeat(i % 7);
      assertThat(KeyPartitioner.hash(key)).isEqualTo(reference.hashBytes(key.getBytes(StandardCharsets.UTF_8)));
      assertThat(KeyPartitioner.partition(key, 4096)).isBetween(0, 4095);
    }
  }

  @Test
  void theHashIsTakenAsUnsigned() {
    // ef46db3751d8e999 is negative as a signed long; a signed remainder would give -7 for 8.
    assertThat(KeyPartitioner.hash("")).isNegative();
    assertThat(KeyPartitioner.partition("", 8)).isEqualTo(1);
  }

  @Test
  void partitionCountMustBePositive() {
    assertThatThrownBy(() -> KeyPartitioner.partition("a", 0)).isInstanceOf(InvalidArgumentException.class);
  }
}
