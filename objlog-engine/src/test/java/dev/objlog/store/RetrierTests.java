package dev.objlog.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetrierTests {

  private final List<Duration> sleeps = new ArrayList<>();
  private final RetryPolicy policy =
      new RetryPolicy(4, Duration.ofMillis(100), Duration.ofMillis(250), 0.5, Duration.ofSeconds(1));
  private final Retrier retrier = new Retrier(policy, sleeps::add, new SplittableRandom(1));

  @Test
  void transientFailuresAreRetriedWithGrowingJitteredBackoff() {
    AtomicInteger calls = new AtomicInteger();
    String result =
        retrier.read(
            "GET k",
            () -> {
              if (calls.incrementAndGet() < 4) {
                throw new TransientStoreException("503", false);
              }
              return "ok";
            });
    assertThat(result).isEqualTo("ok");
    assertThat(calls).hasValue(4);
    assertThat(sleeps).hasSize(3);
    long[] caps = {100, 200, 250};
    for (int i = 0; i < 3; i++) {
      assertThat(sleeps.get(i).toMillis()).isBetween(caps[i] / 2, caps[i]);
    }
  }

  @Test
  void exhaustedReadsReportTheTransientFailure() {
    assertThatThrownBy(() -> retrier.read("GET k", () -> { throw new TransientStoreException("503", false); }))
        .isExactlyInstanceOf(TransientStoreException.class)
        .hasMessageContaining("GET k failed after 4 attempts");
  }

  @Test
  void exhaustedWriteThatMayHaveLandedIsIndeterminate() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () ->
                retrier.write(
                    "PUT k",
                    () -> {
                      throw new TransientStoreException("timeout", calls.incrementAndGet() == 1);
                    }))
        .isInstanceOf(IndeterminateStoreException.class);
  }

  @Test
  void exhaustedWriteThatCertainlyDidNotLandStaysTransient() {
    assertThatThrownBy(() -> retrier.write("PUT k", () -> { throw new TransientStoreException("refused", false); }))
        .isExactlyInstanceOf(TransientStoreException.class);
  }

  @Test
  void permanentFailuresAreNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    assertThatThrownBy(
            () -> retrier.read("GET k", () -> { calls.incrementAndGet(); throw new PermanentStoreException("403"); }))
        .isInstanceOf(PermanentStoreException.class);
    assertThat(calls).hasValue(1);
    assertThat(sleeps).isEmpty();
  }

  @Test
  void backoffDoublesUpToTheCap() {
    assertThat(policy.backoffAfter(1)).isEqualTo(Duration.ofMillis(100));
    assertThat(policy.backoffAfter(2)).isEqualTo(Duration.ofMillis(200));
    assertThat(policy.backoffAfter(3)).isEqualTo(Duration.ofMillis(250));
    assertThat(policy.backoffAfter(60)).isEqualTo(Duration.ofMillis(250));
  }

  @Test
  void invalidPoliciesAreRefusedWithTheReason() {
    assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO, 0, Duration.ofSeconds(1)))
        .hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ofSeconds(2), Duration.ofSeconds(1), 0, Duration.ofSeconds(1)))
        .hasMessageContaining("backoff");
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 2, Duration.ofSeconds(1)))
        .hasMessageContaining("jitter");
  }
}
