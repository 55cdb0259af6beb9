package dev.objlog.store.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.objlog.store.IndeterminateStoreException;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.TransientStoreException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Failures the emulator cannot produce, from tiny loopback servers: the store's own retries (and
 * only those) run, and writes that may have been applied end as indeterminate.
 */
class AzureBlobObjectStoreFailureTests {
  /**
   * The request timeout where the test is not about timeouts: far above what a loaded machine
   * needs for its first request (the SDK's start-up included), so no try ever times out instead.
   */
  private static final Duration NOT_UNDER_TEST = Duration.ofSeconds(60);

  private static final String KEY = "a2V5IGZvciB0ZXN0cyBhZ2FpbnN0IGEgZmFrZSBzZXJ2ZXI=";

  private final List<AutoCloseable> resources = new ArrayList<>();
  private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void release() throws Exception {
    for (AutoCloseable r : resources) {
      r.close();
    }
  }

  private AzureBlobObjectStore storeAt(int port, int attempts, Duration timeout) {
    AzureBlobObjectStore store =
        AzureBlobObjectStore.builder()
            .endpoint("http://127.0.0.1:" + port + "/acct")
            .sharedKey("acct", KEY)
            .containerName("c")
            .retryPolicy(new RetryPolicy(attempts, Duration.ofMillis(5), Duration.ofMillis(40), 0.5, timeout))
            .sleeper(sleeps::add)
            .build();
    resources.add(store);
    return store;
  }

  /** Answers every request with the given status and Azure error code, counting requests. */
  private int answering(int status, String code, AtomicInteger requests) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          exchange.getRequestBody().readAllBytes();
          byte[] body =
              ("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>" + code + "</Code><Message>injected</Message></Error>")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("x-ms-error-code", code);
          exchange.getResponseHeaders().add("Content-Type", "application/xml");
          exchange.sendResponseHeaders(status, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    resources.add(() -> server.stop(0));
    return server.getAddress().getPort();
  }

  @Test
  void throttlingIsRetriedByTheStoreAloneAndNeverCalledIndeterminate() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    AzureBlobObjectStore store = storeAt(answering(503, "ServerBusy", requests), 4, NOT_UNDER_TEST);
    assertThatThrownBy(() -> store.putIfAbsent("k", new byte[] {1}))
        .isExactlyInstanceOf(TransientStoreException.class)
        .hasMessageContaining("after 4 attempts")
        .hasMessageContaining("503");
    // Four tries and three backoffs, all ours: the SDK's own retry loop is off.
    assertThat(requests.get()).isEqualTo(4);
    assertThat(sleeps).hasSize(3);
  }

  @Test
  void aServerErrorOnAWriteEndsIndeterminate() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    AzureBlobObjectStore store = storeAt(answering(500, "OperationTimedOut", requests), 3, NOT_UNDER_TEST);
    assertThatThrownBy(() -> store.compareAndSwap("k", dev.objlog.store.VersionToken.of("0x1"), new byte[] {1}))
        .isInstanceOf(IndeterminateStoreException.class);
    assertThat(requests.get()).isEqualTo(3);
  }

  @Test
  void aServerErrorOnAReadStaysTransient() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    AzureBlobObjectStore store = storeAt(answering(500, "InternalError", requests), 2, NOT_UNDER_TEST);
    assertThatThrownBy(() -> store.get("k")).isExactlyInstanceOf(TransientStoreException.class);
    assertThat(requests.get()).isEqualTo(2);
  }

  @Test
  @Timeout(120)
  void aWriteWhoseReplyNeverComesTimesOutAsIndeterminate() throws Exception {
    ServerSocket blackHole = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    resources.add(blackHole);
    List<Socket> accepted = Collections.synchronizedList(new ArrayList<>());
    Thread acceptor =
        new Thread(
            () -> {
              try {
                while (true) {
                  accepted.add(blackHole.accept());
                }
              } catch (IOException closed) {
                // Test over.
              }
            });
    acceptor.setDaemon(true);
    acceptor.start();
    resources.add(
        () -> {
          for (Socket s : accepted) {
            s.close();
          }
        });
    // The black hole never answers, so each call returns only through the request timeout: the
    // @Timeout guards against a hang, it does not measure anything.
    AzureBlobObjectStore store = storeAt(blackHole.getLocalPort(), 2, Duration.ofMillis(500));
    assertThatThrownBy(() -> store.putIfAbsent("k", new byte[] {1, 2, 3}))
        .isInstanceOf(IndeterminateStoreException.class);
    assertThatThrownBy(() -> store.get("k"))
        .isExactlyInstanceOf(TransientStoreException.class)
        .hasMessageContaining("timed out");
  }

  @Test
  void aRefusedConnectionIsTransientAndNeverIndeterminate() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    AzureBlobObjectStore store = storeAt(port, 2, NOT_UNDER_TEST);
    assertThatThrownBy(() -> store.putIfAbsent("k", new byte[] {1}))
        .isExactlyInstanceOf(TransientStoreException.class)
        .satisfies(e -> assertThat(((TransientStoreException) e).mayHaveTakenEffect()).isFalse())
        .hasMessageContaining("could not connect");
  }
}
