package dev.objlog.store.azure;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The request rate limit on virtual time. */
class RequestRateLimiterTests {

  /** A clock that only moves when the limiter sleeps. */
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
  void requestsAreSpacedAtTheConfiguredRate() {
    VirtualTime time = new VirtualTime();
    RequestRateLimiter limiter = new RequestRateLimiter(10, time, time::sleep);
    for (int i = 0; i < 5; i++) {
      limiter.acquire();
    }
    assertThat(time.sleeps).containsExactly(
        Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(100));
    assertThat(time.now).isEqualTo(Instant.parse("2026-01-01T00:00:00.400Z"));
  }

  @Test
  void idleTimeIsNotSavedUpForABurst() {
    VirtualTime time = new VirtualTime();
    RequestRateLimiter limiter = new RequestRateLimiter(2, time, time::sleep);
    limiter.acquire();
    time.now = time.now.plusSeconds(60);
    limiter.acquire();
    limiter.acquire();
    assertThat(time.sleeps).containsExactly(Duration.ofMillis(500));
  }
}
