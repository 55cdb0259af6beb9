package dev.objlog.spring.listener.checkpoint;

import java.time.Clock;

class InMemoryCheckpointRepositoryTests extends CheckpointRepositoryContractTests {

  @Override
  protected CheckpointRepository create(Clock clock) {
    return new InMemoryCheckpointRepository(clock);
  }
}
