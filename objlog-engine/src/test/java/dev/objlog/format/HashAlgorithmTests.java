package dev.objlog.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.UnsupportedVersionException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
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

  /** The own one-shot XXH64 against the hashing library, every length around the stripe and tail sizes. */
  @Test
  void oneShotXxh64MatchesTheHashingLibraryAtEveryLengthAndOffset() {
    LongHashFunction reference = LongHashFunction.xx(0);
    byte[] data = new byte[1100];
    new SplittableRandom(5).nextBytes(data);
    for (int offset = 0; offset < 9; offset++) {
      for (int len = 0; len <= 1091; len++) {
        assertThat(HashAlgorithm.XXH64.hash(data, offset, len)).as("offset %d len %d", offset, len)
            .isEqualTo(reference.hashBytes(data, offset, len));
      }
    }
    byte[] big = new byte[5 * 1024 * 1024 + 3];
    new SplittableRandom(6).nextBytes(big);
    assertThat(HashAlgorithm.XXH64.hash(big, 3, big.length - 3)).isEqualTo(reference.hashBytes(big, 3, big.length - 3));
    assertThat(HashAlgorithm.XXH64.hash("abc".getBytes(StandardCharsets.US_ASCII), 0, 3))
        .isEqualTo(0x44BC2CF5AD770999L);
    assertThatThrownBy(() -> HashAlgorithm.XXH64.hash(data, 1000, 101))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  /**
   * Long inputs fed in two pieces split at every offset of the first few stripes (and then in
   * uneven chunks), so every phase of the 32-byte stripe buffer meets every lane alignment of the
   * input array; the input also starts at every offset of an enclosing array.
   */
  @Test
  void incrementalXxh64CrossesStripeBoundariesAtEveryOffset() {
    SplittableRandom random = new SplittableRandom(7);
    byte[] backing = new byte[4096 + 40];
    random.nextBytes(backing);
    for (HashAlgorithm algorithm : HashAlgorithm.values()) {
      for (int start = 0; start < 40; start += 3) {
        int len = 4096 - start;
        long expected = algorithm.hash(backing, start, len);
        for (int split = 0; split <= 130; split++) {
          HashAlgorithm.Incremental inc = algorithm.incremental();
          inc.update(backing, start, split);
          inc.update(backing, start + split, len - split);
          assertThat(inc.value()).as("%s start %d split %d", algorithm, start, split).isEqualTo(expected);
        }
        for (int chunk = 1; chunk <= 70; chunk++) {
          HashAlgorithm.Incremental inc = algorithm.incremental();
          for (int pos = 0; pos < len; pos += chunk) {
            inc.update(backing, start + pos, Math.min(chunk, len - pos));
          }
          assertThat(inc.value()).as("%s start %d chunk %d", algorithm, start, chunk).isEqualTo(expected);
        }
      }
      // value() mid-stream must not disturb later updates.
      HashAlgorithm.Incremental inc = algorithm.incremental();
      for (int pos = 0; pos < 4096; pos += 100) {
        inc.update(backing, pos, Math.min(100, 4096 - pos));
        assertThat(inc.value()).isEqualTo(algorithm.hash(backing, 0, Math.min(pos + 100, 4096)));
      }
    }
  }

  @Test
  void incrementalXxh64MatchesOneShotOnAMultiMebibyteInput() {
    byte[] data = new byte[3 * 1024 * 1024 + 17];
    new SplittableRandom(11).nextBytes(data);
    HashAlgorithm.Incremental inc = HashAlgorithm.XXH64.incremental();
    int pos = 0;
    for (int chunk = 1; pos < data.length; chunk = chunk * 3 + 1) {
      int n = Math.min(chunk % 1_000_003, data.length - pos);
      inc.update(data, pos, n);
      pos += n;
    }
    assertThat(inc.value()).isEqualTo(HashAlgorithm.XXH64.hash(data, 0, data.length));
  }
}
