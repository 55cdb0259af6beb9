package dev.objlog.sample;

import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.listener.ObjlogListener;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

/**
 * Listens to the events stream: logs each event and counts them. Its checkpoints, lag, state and
 * group leases show at {@code /actuator/objlog} under {@code listeners.events-logger}.
 *
 * <p>It belongs to the group {@value #GROUP}: the sample keeps checkpoints and leases in the
 * bucket ({@code objlog.checkpoint.store: bucket}), so every copy of the app running on the same
 * store shares the group's partitions, each partition consumed by one copy at a time, and a
 * restarted copy resumes after the group's last checkpoint. Delivery is at least once: after a
 * crash the next holder sees the records since the last checkpoint again (counting is not
 * idempotent, logging is harmless). README.md shows how to run two copies.
 */
@Component
class EventsListener {
  private static final Log logger = LogFactory.getLog(EventsListener.class);

  /** The consumer group the copies of the sample share. */
  static final String GROUP = "event-loggers";

  private final AtomicLong seen = new AtomicLong();

  @ObjlogListener(id = "events-logger", stream = "${sample.events.stream:events}", group = GROUP)
  void onEvent(String value, @Header(ObjlogHeaders.PARTITION) int partition, @Header(ObjlogHeaders.LSN) long lsn) {
    long count = seen.incrementAndGet();
    logger.info("event #" + count + " at " + partition + "/" + lsn + ": " + value);
  }

  long seen() {
    return seen.get();
  }
}
