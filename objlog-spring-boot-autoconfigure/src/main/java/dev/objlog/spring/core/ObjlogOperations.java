package dev.objlog.spring.core;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.springframework.messaging.Message;

/**
 * What applications send with: the send and flush surface of {@link ObjlogTemplate}, as an interface
 * to depend on and to stub in tests. Every method behaves as the template's of the same name
 * documents: a future completes once the record is durable and fails with what the log or store
 * decided; caller errors throw at once, and nothing is sent.
 *
 * <p>The {@code sendDefault} methods write the {@linkplain #getDefaultStream() default stream}
 * ({@code objlog.template.default-stream}); without one they throw {@link NoDefaultStreamException}.
 *
 * <p>Thread-safety: implementations are safe for concurrent use.
 */
public interface ObjlogOperations {

  /** Sends {@code value} to a partition of {@code streamName}. */
  CompletableFuture<SendResult> send(String streamName, int partition, Object value);

  /** Sends {@code value} to the partition {@link KeyPartitioner} picks for {@code key}, with the key as a header. */
  CompletableFuture<SendResult> send(String streamName, String key, Object value);

  /**
   * Sends a message's payload to the stream its {@link ObjlogHeaders#STREAM} header names, or
   * without that header to the default stream.
   *
   * @throws NoDefaultStreamException when the message names no stream and there is no default
   */
  CompletableFuture<SendResult> send(Message<?> message);

  /**
   * Sends {@code value} to a partition of the default stream.
   *
   * @throws NoDefaultStreamException when no default stream is set
   */
  default CompletableFuture<SendResult> sendDefault(int partition, Object value) {
    return send(requireDefaultStream(), partition, value);
  }

  /**
   * Sends {@code value} to the default stream's partition for {@code key}.
   *
   * @throws NoDefaultStreamException when no default stream is set
   */
  default CompletableFuture<SendResult> sendDefault(String key, Object value) {
    return send(requireDefaultStream(), key, value);
  }

  /** Waits until everything sent so far is durable (see {@link ObjlogTemplate#flush()}). */
  void flush();

  /** The stream {@code sendDefault} writes; empty when none is set. */
  Optional<String> getDefaultStream();

  /**
   * The default stream.
   *
   * @throws NoDefaultStreamException when none is set
   */
  private String requireDefaultStream() {
    return getDefaultStream().orElseThrow(NoDefaultStreamException::new);
  }
}
