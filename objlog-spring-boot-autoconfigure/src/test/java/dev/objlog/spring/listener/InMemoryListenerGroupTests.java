package dev.objlog.spring.listener;

import dev.objlog.spring.listener.checkpoint.CheckpointRepository;
import dev.objlog.spring.listener.checkpoint.InMemoryCheckpointRepository;
import java.nio.file.Path;
import java.time.Clock;

/** Both instances share one in-memory repository (as if it were a shared store). */
class InMemoryListenerGroupTests extends ListenerGroupContract {
  private InMemoryCheckpointRepository shared;

  @Override
  protected synchronized CheckpointRepository openRepository(Path storeRoot, Clock clock) {
    if (shared == null) {
      shared = new InMemoryCheckpointRepository(clock);
    }
    return shared;
  }
}
