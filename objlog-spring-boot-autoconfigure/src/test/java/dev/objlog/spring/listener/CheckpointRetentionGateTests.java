package dev.objlog.spring.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.lifecycle.ConsumerFloors;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.spring.listener.checkpoint.CheckpointKey;
import dev.objlog.spring.listener.checkpoint.CheckpointVersion;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointRetentionGateTests {
  private final InMemoryCheckpointRepository checkpoints = new InMemoryCheckpointRepository();
  private final CheckpointRetentionGate gate = new CheckpointRetentionGate(checkpoints);

  private void checkpoint(String group, int partition, long nextLsn) {
    checkpoints.save(CheckpointKey.of(group, "orders", partition),
        new CursorCheckpoint(1, "shop/orders", partition, nextLsn), CheckpointVersion.ABSENT);
  }

  @Test
  void retentionStopsAtTheSlowestGroupsCheckpoint() {
    checkpoint("billing", 0, 40);
    checkpoint("audit", 0, 25);
    assertThat(gate.retainableBefore("orders", 0, List.of("billing", "audit"))).isEqualTo(25);
    assertThat(gate.retainableBefore("orders", 0, List.of("billing"))).isEqualTo(40);
  }

  @Test
  void aGroupWithoutACheckpointHoldsEverythingBack() {
    checkpoint("billing", 1, 40);
    assertThat(gate.retainableBefore("orders", 1, List.of("billing", "new-group"))).isZero();
    assertThat(gate.retainableBefore("orders", 2, List.of("billing"))).as("another partition").isZero();
  }

  @Test
  void positionsAboveTwoToTheSixtyThreeCompareUnsigned() {
    checkpoint("a", 0, Long.MIN_VALUE + 5);
    checkpoint("b", 0, 7);
    assertThat(gate.retainableBefore("orders", 0, List.of("a", "b"))).isEqualTo(7);
    assertThat(gate.retainableBefore("orders", 0, List.of("a"))).isEqualTo(Long.MIN_VALUE + 5);
  }

  @Test
  void untilConsumedRetentionSeesEachGroupsFloorAndAMissingCheckpointAtZero() {
    checkpoint("billing", 0, 40);
    checkpoint("audit", 0, 25);
    assertThat(gate.floors("orders", 0, List.of("billing", "audit", "new-group"))).containsExactly(
        new ConsumerFloors.ConsumerFloor("billing", 0, 40), new ConsumerFloors.ConsumerFloor("audit", 0, 25),
        new ConsumerFloors.ConsumerFloor("new-group", 0, 0));
  }
}
