package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class GroupNameTests {

  private static final Duration TTL = Duration.ofSeconds(60);
  private static final Duration RENEW = Duration.ofSeconds(15);
  private static final Duration MARGIN = Duration.ofSeconds(15);

  @Test
  void anOrdinaryGroupNameIsAccepted() {
    assertThatNoException().isThrownBy(() -> ObjlogListenerContainerFactory.checkGroup("orders", "billing", TTL, RENEW, MARGIN));
  }

  @Test
  void theWriterLeaseGroupsAreRefusedBecauseTheirLeasesWouldCollide() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ObjlogListenerContainerFactory.checkGroup("orders", "objlog-writer", TTL, RENEW, MARGIN))
        .withMessageContaining("reserved for ObjlogTemplate's writer leases");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ObjlogListenerContainerFactory.checkGroup("orders", "objlog-writer-members", TTL, RENEW, MARGIN))
        .withMessageContaining("choose another group name");
  }

  @Test
  void aGroupEndingInTheMemberSuffixIsRefused() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ObjlogListenerContainerFactory.checkGroup("orders", "billing#members", TTL, RENEW, MARGIN))
        .withMessageContaining("reserved for member slots");
  }
}
