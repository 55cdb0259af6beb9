package dev.objlog.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.UnsupportedVersionException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class HashAlgorithmTests {

  private static final byte[] CHECK = "123456789".getBytes(StandardCharsets.US_ASCII);

  @Test
  void crc32cMatchesTheCastagnoliCheckValueZeroExtended() {
    assertThat(HashAlgorithm.CRC32C.hash(CHECK, 0, CHECK.length)).isEqualTo(0xE3069283L);
  }

  @Test
  void xxh64OfEmptyInputIsTheSeedZeroReferenceValue() {
    assertThat(HashAlgorithm.XXH64.hash(new byte[0], 0, 0)).isEqualTo(0xEF46DB3751D8E999L);
  }

  @Test
  void unknownAlgorithmIdIsATypedError() {
    assertThatThrownBy(() -> HashAlgorithm.fromId(2)).isInstanceOf(UnsupportedVersionException.class);
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 42, 20261129})
  void incrementalHashEqualsOneShotHashForAnySplit(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int round = 0; round < 200; round++) {
      byte[] data = new byte[random.nextInt(0, 300)];
      random.nextBytes(data);
      for (HashAlgorithm algorithm : HashAlgorithm.values()) {
        HashAlgorithm.Incremental inc = algorithm.incremental();
        int pos = 0;
        while (pos < data.length) {
          int n = random.nextInt(0, data.length - pos + 1);
          inc.update(data, pos, n);
          pos += n;
        }
        long expected = algorithm.hash(data, 0, data.length);
        assertThat(inc.value()).as("%s seed %d round %d len %d", algorithm, seed, round, data.length)
            .isEqualTo(expected);
        assertThat(algorithm.hash(ByteBuffer.wrap(data))).isEqualTo(expected);
      }
    }
  }
}
