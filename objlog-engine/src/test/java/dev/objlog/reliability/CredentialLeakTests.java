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
import dev.objlog.store.gcs.FakeGcsAccess;
import dev.objlog.store.gcs.GcsObjectStore;
import dev.objlog.store.s3.S3ObjectStore;
import dev.objlog.store.s3.S3ProxyServer;
import com.google.auth.Credentials;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.Date;
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
 * unreachable endpoint). S3, Azure and (issue #13) GCS. The actuator part belongs to the Spring
 * module.
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
    for (String name : List.of("dev.objlog", "software.amazon.awssdk", "com.azure", "org.apache.http", "com.google")) {
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

  /**
   * GCS (issue #13): an OAuth access token, a service-account JSON key whose token endpoint
   * refuses the grant (HTTP 400 at once: a dead token endpoint is retried by google-auth-library
   * for minutes), and the same key signing its own JWTs (no token endpoint), against the GCS test
   * server and a dead endpoint. The google-http-client logs through java.util.logging, so those
   * records are captured too, at FINEST.
   */
  @Test
  void gcsCredentialsStayOutOfDescriptionsExceptionsAndLogs() throws Exception {
    String accessToken = "ya29.gcs-access-token-that-must-never-leak-" + Long.toHexString(System.nanoTime());
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    String keyBody = Base64.getMimeEncoder(64, "\n".getBytes(UTF_8))
        .encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
    com.sun.net.httpserver.HttpServer tokenEndpoint = refusingTokenEndpoint();
    String json = "{\"type\":\"service_account\",\"project_id\":\"leakcheck\","
        + "\"private_key_id\":\"0123456789abcdef0123456789abcdef01234567\","
        + "\"private_key\":\"-----BEGIN PRIVATE KEY-----\\n" + keyBody.replace("\n", "\\n")
        + "\\n-----END PRIVATE KEY-----\\n\","
        + "\"client_email\":\"leakcheck@leakcheck.iam.gserviceaccount.com\",\"client_id\":\"1\","
        + "\"token_uri\":\"http://127.0.0.1:" + tokenEndpoint.getAddress().getPort() + "/token\"}";
    ServiceAccountCredentials serviceAccount =
        ServiceAccountCredentials.fromStream(new ByteArrayInputStream(json.getBytes(UTF_8)));
    List<Credentials> credentials = List.of(
        GoogleCredentials.create(new AccessToken(accessToken, new Date(System.currentTimeMillis() + 3_600_000L))),
        serviceAccount,
        serviceAccount.createWithUseJwtAccessWithScope(true));

    java.util.logging.Logger google = java.util.logging.Logger.getLogger("com.google");
    java.util.logging.Level googleLevel = google.getLevel();
    List<String> julRecords = java.util.Collections.synchronizedList(new ArrayList<>());
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord record) {
        julRecords.add(new java.util.logging.SimpleFormatter().format(record));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    handler.setLevel(java.util.logging.Level.ALL);
    // FINEST, the most verbose level short of ALL: google-http-client logs the Authorization header
    // in full only when its logger is at ALL, an explicit opt-in that no SDK can protect against.
    google.setLevel(java.util.logging.Level.FINEST);
    google.addHandler(handler);
    List<String> texts = new ArrayList<>();
    int answered = 0;
    try (FakeGcsAccess server = FakeGcsAccess.start()) {
      server.createBucket("secrets");
      for (Credentials credential : credentials) {
        for (String host : List.of(server.host(), "http://127.0.0.1:1")) {
          try (ObjectStore store = GcsObjectStore.builder().bucket("secrets").host(host).projectId("leakcheck")
              .credentials(credential).retryPolicy(QUICK).build()) {
            exercise(store, texts);
            if (host.equals(server.host()) && HostileInputTests.catching(() -> store.get("k")) == null) {
              answered++;
            }
          }
        }
      }
    } finally {
      tokenEndpoint.stop(0);
      google.removeHandler(handler);
      google.setLevel(googleLevel);
    }
    texts.addAll(julRecords);
    assertThat(texts).as("failures observed").anyMatch(t -> t.contains("Exception"));
    assertThat(answered).as("stores whose credentials the test server accepted (written object read back)").isGreaterThanOrEqualTo(1);
    List<String> secrets = new ArrayList<>(List.of(accessToken, json));
    for (String line : keyBody.split("\n")) {
      if (line.length() >= 40) {
        secrets.add(line);
      }
    }
    assertNoLeak(texts, secrets.toArray(String[]::new));
  }

  /** An OAuth token endpoint that refuses every grant, as Google's does for a revoked key. */
  static com.sun.net.httpserver.HttpServer refusingTokenEndpoint() throws java.io.IOException {
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      byte[] body = "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}"
          .getBytes(UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(400, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    return server;
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
    for (int i = 0; i < secrets.length; i++) {
      String secret = secrets[i];
      for (String text : all) {
        if (text != null && text.contains(secret)) {
          int at = text.indexOf(secret);
          throw new AssertionError("secret #" + i + " leaked into a text: ..."
              + text.substring(Math.max(0, at - 300), at) + "<SECRET>");
        }
      }
    }
  }
}
