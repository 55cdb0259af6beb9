package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.PartitionWriter;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.RetryPolicy;
import dev.objlog.store.azure.AzureBlobObjectStore;
import dev.objlog.store.azure.AzuriteAccess;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Security (issue #9, engine part): secrets given to a store never appear in its describe() or
 * toString(), in any exception (message, causes, suppressed, stack trace text) or in any log line
 * the engine or the SDKs emit at DEBUG, for successful and failing requests (wrong secret,
 * unreachable endpoint). The actuator part belongs to the Spring module.
 */
class CredentialLeakTests {
  private static final RetryPolicy QUICK =
      new RetryPolicy(2, Duration.ofMillis(5), Duration.ofMillis(10), 0.5, Duration.ofSeconds(5));
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Map<String, Level> previous = new java.util.HashMap<>();

  @BeforeEach
  void captureLogs() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    logs.setContext(context);
    logs.start();
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(logs);
    for (String name : List.of("dev.objlog", "software.amazon.awssdk", "com.azure", "org.apache.http")) {
      Logger logger = context.getLogger(name);
      previous.put(name, logger.getLevel());
      logger.setLevel(Level.DEBUG);
    }
  }

  @AfterEach
  void restoreLogs() {
    LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
    context.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(logs);
    previous.forEach((name, level) -> context.getLogger(name).setLevel(level));
  }

  @Test
  void s3SecretsStayOutOfDescriptionsExceptionsAndLogs() {
    try (S3ProxyServer server = S3ProxyServer.start(true)) {
      server.createBucket("secrets");
      String secret = S3ProxyServer.SECRET_KEY;
      List<String> texts = new ArrayList<>();
      try (ObjectStore good = s3(server, S3ProxyServer.ACCESS_KEY, secret);
          ObjectStore wrong = s3(server, S3ProxyServer.ACCESS_KEY, "wrong-" + secret);
          ObjectStore dead = S3ObjectStore.builder().bucket("secrets").endpoint(java.net.URI.create("http://127.0.0.1:1"))
              .pathStyle(true).region("us-east-1").credentials(S3ProxyServer.ACCESS_KEY, secret).retryPolicy(QUICK).build()) {
        exercise(good, texts);
        exercise(wrong, texts);
        exercise(dead, texts);
        assertThat(texts).as("failures observed").anyMatch(t -> t.contains("Exception"));
        assertNoLeak(texts, secret, "wrong-" + secret);
      }
    }
  }

  @Test
  void azureAccountKeyStaysOutOfDescriptionsExceptionsAndLogs() throws Exception {
    List<String> texts = new ArrayList<>();
    String key = AzuriteAccess.KEY;
    try (ObjectStore dead = AzureBlobObjectStore.builder().endpoint("http://127.0.0.1:1/" + AzuriteAccess.ACCOUNT)
        .sharedKey(AzuriteAccess.ACCOUNT, key).containerName("secrets").retryPolicy(QUICK).build()) {
      exercise(dead, texts);
    }
    if (AzuriteAccess.installed()) {
      try (AzuriteAccess azurite = AzuriteAccess.start();
          ObjectStore wrong = AzureBlobObjectStore.builder().endpoint(azurite.endpoint())
              .sharedKey(AzuriteAccess.ACCOUNT, "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXk=").containerName("secrets")
              .retryPolicy(QUICK).build();
          ObjectStore good = AzureBlobObjectStore.builder().endpoint(azurite.endpoint())
              .sharedKey(AzuriteAccess.ACCOUNT, key).containerName("secrets").retryPolicy(QUICK).build()) {
        exercise(wrong, texts);
        exercise(good, texts);
      }
    }
    assertNoLeak(texts, key, "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXk=");
  }

  private ObjectStore s3(S3ProxyServer server, String access, String secret) {
    return S3ObjectStore.builder().bucket("secrets").endpoint(server.endpoint).pathStyle(true).region("us-east-1")
        .credentials(access, secret).retryPolicy(QUICK).build();
  }

  /** Runs requests and the log's open path; collects every text a user or operator could see. */
  private static void exercise(ObjectStore store, List<String> texts) {
    texts.add(store.describe());
    texts.add(store.toString());
    List<HostileInputTests.Action> actions = List.of(
        () -> store.putIfAbsent("k", "v".getBytes(UTF_8)),
        () -> store.get("k"),
        () -> store.get("missing"),
        () -> store.list("", 10),
        () -> store.verifyConditionalWrites("selftest"),
        () -> {
          try (Objlog log = Objlog.open(store, "secrets/stream"); PartitionWriter w = log.openWriter(0)) {
            w.append(LogRecord.of(1, "x"));
            w.flush();
          }
        });
    for (HostileInputTests.Action a : actions) {
      Throwable t = HostileInputTests.catching(a);
      if (t != null) {
        StringWriter trace = new StringWriter();
        t.printStackTrace(new PrintWriter(trace));
        texts.add(trace.toString());
        texts.add(String.valueOf(t));
      }
    }
  }

  private void assertNoLeak(List<String> texts, String... secrets) {
    List<String> all = new ArrayList<>(texts);
    for (ILoggingEvent e : logs.list) {
      all.add(e.getFormattedMessage());
      if (e.getThrowableProxy() != null) {
        all.add(ch.qos.logback.classic.spi.ThrowableProxyUtil.asString(e.getThrowableProxy()));
      }
    }
    System.out.println("credential leak check: " + texts.size() + " texts, " + logs.list.size() + " log events");
    for (String secret : secrets) {
      assertThat(all).as("texts containing a secret").noneMatch(t -> t != null && t.contains(secret));
    }
  }
}
