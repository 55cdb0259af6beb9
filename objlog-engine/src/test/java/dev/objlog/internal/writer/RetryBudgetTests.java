package dev.objlog.internal.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.WriterDeadlineExceededException;
import dev.objlog.WriterDeadlineExceededException.Deadline;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The writer's retry rules: the backoff schedule and deadlines compared as elapsed time. */
class RetryBudgetTests {
  private static final Exception CAUSE = new Exception("last failure");

  @Test
  void theBackoffDoublesFromTenMillisecondsUpToOneSecond() {
    assertThat(IntStream.rangeClosed(1, 10).mapToLong(RetryBudget::backoffMillis).toArray())
        .containsExactly(10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000);
    assertThat(RetryBudget.backoffMillis(64)).isEqualTo(1000);
  }

  @Test
  void aDeadlineHasPassedOnlyAfterItsLimitAndAcrossTheTickersOverflow() {
    long since = Long.MAX_VALUE - 5;
    Duration limit = Duration.ofNanos(10);

    assertThat(RetryBudget.check(Deadline.CATALOG_PUBLISH, limit, since, since + 10, e -> "late", CAUSE))
        .as("exactly at the deadline").isNull();
    WriterDeadlineExceededException late =
        RetryBudget.check(Deadline.CATALOG_PUBLISH, limit, since, since + 11, e -> "late by " + e, CAUSE);

    assertThat(late).isNotNull();
    assertThat(late.deadline()).isEqualTo(Deadline.CATALOG_PUBLISH);
    assertThat(late.elapsed()).isEqualTo(Duration.ofNanos(11));
    assertThat(late.limit()).isEqualTo(limit);
    assertThat(late).hasMessage("late by PT0.000000011S").hasCause(CAUSE);
  }
}
