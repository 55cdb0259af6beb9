package dev.objlog.sample;

import dev.objlog.spring.core.ObjlogHeaders;
import dev.objlog.spring.listener.ObjlogListener;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;

/**
 * Listens to the events stream: logs each event and counts them. Its checkpoints, lag and state
 * show at {@code /actuator/objlog} under {@code listeners.events-logger}. Without a database the
 * checkpoints live in memory, so after a restart it reads the stream from the beginning again
 * (at-least-once delivery: counting is not idempotent, logging is harmless).
 */
@Component
class EventsListener {
  private static final Log logger = LogFactory.getLog(EventsListener.class);

  private final AtomicLong seen = new AtomicLong();

  @ObjlogListener(id = "events-logger", stream = "${sample.events.stream:events}")
  void onEvent(String value, @Header(ObjlogHeaders.PARTITION) int partition, @Header(ObjlogHeaders.LSN) long lsn) {
    long count = seen.incrementAndGet();
    logger.info("event #" + count + " at " + partition + "/" + lsn + ": " + value);
  }

  long seen() {
    return seen.get();
  }
}
