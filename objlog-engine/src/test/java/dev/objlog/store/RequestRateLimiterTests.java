package dev.objlog.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestRateLimiterTests {

  /** A clock that only moves when the limiter sleeps, as virtual time does. */
  private static final class VirtualTime extends Clock {
    Instant now = Instant.parse("2026-01-01T00:00:00Z");
    final List<Duration> sleeps = new ArrayList<>();

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }

    void sleep(Duration d) {
      sleeps.add(d);
      now = now.plus(d);
    }
  }

  @Test
  void requestsAreSpacedEvenlyWithoutABurst() {
    VirtualTime time = new VirtualTime();
    RequestRateLimiter limiter = RequestRateLimiter.of(4, time, time::sleep);
    Instant start = time.now;
    for (int i = 0; i < 5; i++) {
      limiter.acquire();
    }
    assertThat(time.sleeps).containsExactly(
        Duration.ofMillis(250), Duration.ofMillis(250), Duration.ofMillis(250), Duration.ofMillis(250));
    assertThat(Duration.between(start, time.now)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void idleTimeIsNotSavedUpForLater() {
    VirtualTime time = new VirtualTime();
    RequestRateLimiter limiter = RequestRateLimiter.of(10, time, time::sleep);
    limiter.acquire();
    time.now = time.now.plusSeconds(60);
    limiter.acquire();
    limiter.acquire();
    assertThat(time.sleeps).containsExactly(Duration.ofMillis(100));
  }

  @Test
  void zeroRateMeansUnlimited() {
    VirtualTime time = new VirtualTime();
    RequestRateLimiter limiter = RequestRateLimiter.of(0, time, time::sleep);
    assertThat(limiter.isLimited()).isFalse();
    for (int i = 0; i < 100; i++) {
      limiter.acquire();
    }
    assertThat(time.sleeps).isEmpty();
  }

  @Test
  void rejectsNonsenseRates() {
    VirtualTime time = new VirtualTime();
    assertThatThrownBy(() -> RequestRateLimiter.of(-1, time, time::sleep)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RequestRateLimiter.of(Double.NaN, time, time::sleep))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RequestRateLimiter.of(Double.POSITIVE_INFINITY, time, time::sleep))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void onATickerRequestsAreSpacedAcrossTheOverflowOfItsReadings() {
    dev.objlog.testing.MutableTicker ticker = new dev.objlog.testing.MutableTicker(Long.MAX_VALUE - 300_000_000L);
    List<Duration> sleeps = new ArrayList<>();
    RequestRateLimiter limiter = RequestRateLimiter.of(4, ticker, d -> {
      sleeps.add(d);
      ticker.advance(d);
    });
    for (int i = 0; i < 5; i++) {
      limiter.acquire();
    }
    assertThat(sleeps).as("a quarter second between requests, readings wrapping after the second")
        .containsExactly(Duration.ofMillis(250), Duration.ofMillis(250), Duration.ofMillis(250), Duration.ofMillis(250));
  }
}
