package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PreviousReleaseLeases;
import dev.objlog.spring.coordination.InMemoryLeaseStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Group names: every name a lease store can key is an ordinary group (member slots and writer
 * leases live where no group reaches, {@code LeaseLayoutTests}), except while the previous
 * release's leases are held too: then the names that release reserved are refused.
 */
class GroupNameTests {

  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration RENEW = Duration.ofSeconds(15);
  private static final Duration MARGIN = Duration.ofSeconds(15);
  private static final List<String> FORMERLY_RESERVED = List.of("objlog-writer", "objlog-writer-members", "billing#members");
  private static final LeaseStore LEASES = new InMemoryLeaseStore(Clock.systemUTC());

  @Test
  void anOrdinaryGroupNameIsAccepted() {
    assertThatNoException().isThrownBy(
        () -> ObjlogListenerContainerFactory.checkGroup("orders", "billing", LEASES, TTL, RENEW, MARGIN));
  }

  @Test
  void theNamesThePreviousReleaseReservedAreOrdinaryGroups() {
    for (String group : FORMERLY_RESERVED) {
      assertThatNoException().as(group).isThrownBy(
          () -> ObjlogListenerContainerFactory.checkGroup("orders", group, LEASES, TTL, RENEW, MARGIN));
    }
  }

  @Test
  void aGroupOfTheLongestNameALeaseStoreKeysIsAccepted() {
    assertThatNoException().isThrownBy(
        () -> ObjlogListenerContainerFactory.checkGroup("orders", "g".repeat(255), LEASES, TTL, RENEW, MARGIN));
    assertThatIllegalArgumentException().isThrownBy(
        () -> ObjlogListenerContainerFactory.checkGroup("orders", "g".repeat(256), LEASES, TTL, RENEW, MARGIN))
        .withMessageContaining("listener orders");
  }

  @Test
  void whileThePreviousReleasesLeasesAreHeldItsReservedNamesAreRefused() {
    LeaseStore holding = new PreviousReleaseLeases(LEASES, PreviousReleaseLeases.Layout.ROWS);
    for (String group : FORMERLY_RESERVED) {
      assertThatIllegalArgumentException().as(group)
          .isThrownBy(() -> ObjlogListenerContainerFactory.checkGroup("orders", group, holding, TTL, RENEW, MARGIN))
          .withMessageContaining("objlog.checkpoint.hold-previous-release-leases")
          .withMessageContaining("choose another group name");
    }
    assertThatNoException().isThrownBy(
        () -> ObjlogListenerContainerFactory.checkGroup("orders", "billing", holding, TTL, RENEW, MARGIN));
  }
}
