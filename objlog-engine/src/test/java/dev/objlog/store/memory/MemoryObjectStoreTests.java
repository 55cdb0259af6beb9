package dev.objlog.store.memory;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MemoryObjectStoreTests {

  private final MemoryObjectStore store = new MemoryObjectStore();

  private static VersionToken created(CreateResult result) {
    return ((CreateResult.Created) result).token();
  }

  @Test
  void listingOrdersNonAsciiKeysByUtf8BytesNotByUtf16Units() {
    // U+FF5E (3 UTF-8 bytes, one UTF-16 unit 0xFF5E) sorts before U+1F600 (4 UTF-8 bytes,
    // surrogates 0xD83D...), though String.compareTo puts the surrogate pair first.
    List<String> keys = List.of("k/\uFF5E", "k/\uD83D\uDE00", "k/z", "k/\u00E9", "k/Z");
    keys.forEach(k -> created(store.putIfAbsent(k, k.getBytes(UTF_8))));
    List<String> listed = store.list("k/", 100).entries().stream().map(ObjectMetadata::key).toList();
    List<byte[]> utf8 = new ArrayList<>(keys.stream().map(k -> k.getBytes(UTF_8)).toList());
    utf8.sort(Arrays::compareUnsigned);
    assertThat(listed).containsExactlyElementsOf(utf8.stream().map(b -> new String(b, UTF_8)).toList());
    assertThat(listed).containsExactly("k/Z", "k/z", "k/\u00E9", "k/\uFF5E", "k/\uD83D\uDE00");
    assertThat(store.list("k/", "k/\uFF5E", 10).entries())
        .extracting(ObjectMetadata::key)
        .containsExactly("k/\uD83D\uDE00");
  }

  @Test
  void byteOrderAgreesWithUnsignedUtf8ComparisonOnRandomStrings() {
    Random random = new Random(11);
    for (int i = 0; i < 10_000; i++) {
      String a = randomString(random);
      String b = randomString(random);
      int expected = Integer.signum(Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8)));
      assertThat(Integer.signum(dev.objlog.store.KeyOrder.compare(a, b)))
          .as("seed 11, pair %d: %s vs %s", i, a, b)
          .isEqualTo(expected);
    }
  }

  private static String randomString(Random random) {
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(4);
    int[] pool = {'a', '/', 0x7F, 0xE9, 0x7FF, 0x800, 0xE000, 0xFFFD, 0x10000, 0x1F600, 0x10FFFF};
    for (int i = 0; i < n; i++) {
      s.appendCodePoint(pool[random.nextInt(pool.length)]);
    }
    return s.toString();
  }

  @Test
  void storedBytesAreCopiedOnTheWayInAndOut() {
    byte[] body = "original".getBytes(UTF_8);
    VersionToken token = created(store.putIfAbsent("k", body));
    body[0] = 'X';
    StoredObject read = store.get("k");
    assertThat(read.bytes()).isEqualTo("original".getBytes(UTF_8));
    read.bytes()[0] = 'Y';
    assertThat(store.get("k").bytes()).isEqualTo("original".getBytes(UTF_8));
    byte[] next = "next".getBytes(UTF_8);
    store.compareAndSwap("k", token, next);
    next[0] = 'Z';
    assertThat(store.get("k").bytes()).isEqualTo("next".getBytes(UTF_8));
    byte[] range = store.getRange("k", 0, 2);
    range[0] = 'Q';
    assertThat(store.get("k").bytes()).isEqualTo("next".getBytes(UTF_8));
  }

  @Test
  void tokensNeverRepeatEvenAfterDeleteAndRecreate() {
    VersionToken first = created(store.putIfAbsent("k", new byte[] {1}));
    store.delete(List.of("k"));
    VersionToken second = created(store.putIfAbsent("k", new byte[] {1}));
    assertThat(second).isNotEqualTo(first);
    assertThat(store.compareAndSwap("k", first, new byte[] {2})).isInstanceOf(CasResult.Conflict.class);
  }

  @Test
  void lastModifiedComesFromTheInjectedClock() {
    Instant at = Instant.parse("2031-02-03T04:05:06Z");
    MemoryObjectStore clocked = new MemoryObjectStore(Clock.fixed(at, ZoneOffset.UTC));
    clocked.putIfAbsent("k", new byte[0]);
    assertThat(clocked.head("k").orElseThrow().lastModified()).isEqualTo(at);
  }

  @Test
  void badArgumentsAreTypedErrors() {
    assertThatThrownBy(() -> store.putIfAbsent("", new byte[0])).isInstanceOf(PermanentStoreException.class);
    assertThatThrownBy(() -> store.list("", "", 0)).isInstanceOf(InvalidArgumentException.class);
    created(store.putIfAbsent("k", new byte[3]));
    assertThatThrownBy(() -> store.getRange("k", -1, 2)).isInstanceOf(InvalidArgumentException.class);
    var upload = store.startUpload("u");
    assertThatThrownBy(() -> upload.write(new byte[2], 1, 2)).isInstanceOf(InvalidArgumentException.class);
    upload.abort();
    assertThatThrownBy(upload::complete).isInstanceOf(PermanentStoreException.class);
  }
}
