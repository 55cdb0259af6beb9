package dev.objlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogRecordTests {

  @Test
  void encodedSizeCountsEnvelopeHeadersAreaAndValue() {
    assertThat(LogRecord.of(1, "alpha").encodedSize()).isEqualTo(16 + 5);
    LogRecord withHeaders = LogRecord.of(1, List.of(Header.of("k", "vv"), Header.of("key", "")), new byte[3]);
    assertThat(withHeaders.encodedSize()).isEqualTo(16 + 2 + (4 + 1 + 2) + (4 + 3) + 3);
  }

  @Test
  void recordsAreImmutable() {
    byte[] value = {1, 2, 3};
    LogRecord record = LogRecord.of(5, value);
    value[0] = 9;
    record.value()[1] = 9;
    assertThat(record.value()).containsExactly(1, 2, 3);
    assertThat(record.valueBuffer().isReadOnly()).isTrue();
  }

  @Test
  void oversizeValuesAndHeadersAreRefusedWithTheLimit() {
    assertThatThrownBy(() -> LogRecord.of(0, new byte[LogRecord.MAX_VALUE_BYTES + 1]))
        .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("4194304");
    List<Header> many = new ArrayList<>();
    for (int i = 0; i < 65; i++) {
      many.add(Header.of("k" + i, "v"));
    }
    assertThatThrownBy(() -> LogRecord.of(0, many, new byte[0])).hasMessageContaining("at most 64 headers");
    List<Header> big = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      big.add(Header.of(new byte[] {(byte) i}, new byte[Header.MAX_VALUE_BYTES]));
    }
    assertThatThrownBy(() -> LogRecord.of(0, big, new byte[0])).hasMessageContaining("262144");
  }

  @Test
  void headerKeysMustBeNonEmptyAndBounded() {
    assertThatThrownBy(() -> Header.of(new byte[0], new byte[0])).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> Header.of(new byte[1025], new byte[0])).hasMessageContaining("1..1024");
    assertThatThrownBy(() -> Header.of(new byte[1], new byte[65_536])).hasMessageContaining("65535");
    assertThat(Header.of(new byte[1024], new byte[65_535]).encodedSize()).isEqualTo(4 + 1024 + 65_535);
  }
}
