package dev.objlog.internal.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ByteWeightedCacheTests {

  @Test
  void staysWithinItsByteBudget() {
    ByteWeightedCache<Integer, byte[]> cache = ByteWeightedCache.create(10_000, v -> v.length);
    for (int i = 0; i < 100; i++) {
      cache.put(i, new byte[1_000]);
    }
    assertThat(cache.weightedBytes()).isLessThanOrEqualTo(10_000);
    assertThat(cache.size()).isLessThanOrEqualTo(10);
  }

  @Test
  void loadsOnceAndServesHitsWithoutLoading() {
    ByteWeightedCache<String, byte[]> cache = ByteWeightedCache.create(1 << 20, v -> v.length);
    AtomicInteger loads = new AtomicInteger();
    byte[] first = cache.get("k", k -> { loads.incrementAndGet(); return new byte[8]; });
    byte[] second = cache.get("k", k -> { loads.incrementAndGet(); return new byte[8]; });
    assertThat(second).isSameAs(first);
    assertThat(loads).hasValue(1);
  }

  @Test
  void aFailedLoadCachesNothingAndAZeroBudgetAlwaysLoads() {
    ByteWeightedCache<String, byte[]> cache = ByteWeightedCache.create(1 << 20, v -> v.length);
    assertThatThrownBy(() -> cache.get("k", k -> { throw new IllegalStateException("boom"); }))
        .hasMessage("boom");
    assertThat(cache.getIfPresent("k")).isNull();

    ByteWeightedCache<String, byte[]> off = ByteWeightedCache.create(0, v -> v.length);
    AtomicInteger loads = new AtomicInteger();
    off.get("k", k -> { loads.incrementAndGet(); return new byte[1]; });
    off.get("k", k -> { loads.incrementAndGet(); return new byte[1]; });
    assertThat(loads).hasValue(2);
    assertThatThrownBy(() -> ByteWeightedCache.create(-1, (byte[] v) -> v.length))
        .isInstanceOf(InvalidArgumentException.class);
  }
}
