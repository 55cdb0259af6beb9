package dev.objlog.spring.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerContainer;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.store.s3.S3ProxyServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The actuator, served over HTTP by a real application (issue #9, security): the {@code objlog}
 * endpoint, the health output and (issue #13) Boot's {@code env} and {@code configprops} endpoints
 * with {@code show-values: always} never contain store credentials, whether the store answers,
 * refuses the credentials or cannot be reached (so error texts are scanned too); and its write
 * operations (retention, reclaim, scrub, listener pause/resume/start/stop) do not exist unless
 * {@code management.endpoint.objlog.access} is raised to {@code unrestricted}.
 */
class ActuatorSecurityTests {
  private static final String BUCKET = "actuator-secrets";
  /** A distinctive Azure account key (base64, as real keys are). */
  private static final String AZURE_KEY = Base64.getEncoder()
      .encodeToString("azure-account-key-that-must-never-leak-0123456789".getBytes(StandardCharsets.US_ASCII));
  private static final String WRONG_S3_SECRET = "wrong-s3-secret-that-must-never-leak";

  private static S3ProxyServer server;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void startServer() {
    server = S3ProxyServer.start(false);
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  /** Every stream the scenarios configure, its listener, and actuator exposure with health details. */
  private static final String[] COMMON = {
    "server.port=0",
    "objlog.streams.orders.partitions=2",
    "management.endpoints.web.exposure.include=objlog,health,env,configprops",
    "management.endpoint.health.show-details=always",
    // The worst case an operator can configure: Boot masks nothing unless a SanitizingFunction does.
    "management.endpoint.env.show-values=always",
    "management.endpoint.configprops.show-values=always",
  };

  /** A distinctive SAS signature (URL-encoded base64, as in a real SAS token). */
  private static final String SAS_SIGNATURE = URLEncoder.encode(Base64.getEncoder()
      .encodeToString("sas-signature-that-must-never-leak-0123456789".getBytes(StandardCharsets.US_ASCII)),
      StandardCharsets.UTF_8);

  @Test
  void endpointHealthEnvAndConfigpropsNeverContainStoreCredentials(@TempDir Path dir) throws Exception {
    String s3 = "objlog.store.s3.";
    com.sun.net.httpserver.HttpServer tokenEndpoint = refusingTokenEndpoint();
    ServiceAccountKey gcsKey = ServiceAccountKey.write(dir.resolve("gcs-key.json"),
        "http://127.0.0.1:" + tokenEndpoint.getAddress().getPort() + "/token");
    List<Scenario> scenarios = List.of(
        new Scenario("s3, right secret", List.of(S3ProxyServer.SECRET_KEY), true,
            "objlog.store.type=s3", "objlog.store.bucket=" + BUCKET, s3 + "endpoint=" + server.endpoint(),
            s3 + "path-style=true", s3 + "access-key=" + S3ProxyServer.ACCESS_KEY,
            s3 + "secret-key=" + S3ProxyServer.SECRET_KEY),
        new Scenario("s3, wrong secret", List.of(WRONG_S3_SECRET), false,
            "objlog.store.type=s3", "objlog.store.bucket=" + BUCKET, s3 + "endpoint=" + server.endpoint(),
            s3 + "path-style=true", s3 + "access-key=" + S3ProxyServer.ACCESS_KEY, s3 + "secret-key=" + WRONG_S3_SECRET,
            "objlog.store.verify-conditional-writes=false"),
        new Scenario("s3, unreachable endpoint", List.of(S3ProxyServer.SECRET_KEY), false,
            "objlog.store.type=s3", "objlog.store.bucket=" + BUCKET, s3 + "endpoint=http://127.0.0.1:1",
            s3 + "path-style=true", s3 + "access-key=" + S3ProxyServer.ACCESS_KEY,
            s3 + "secret-key=" + S3ProxyServer.SECRET_KEY, "objlog.store.verify-conditional-writes=false", "objlog.store.verify-bucket=false"),
        new Scenario("azure, connection string", List.of(AZURE_KEY), false,
            "objlog.store.type=azure", "objlog.store.container=logs",
            "objlog.store.azure.connection-string=DefaultEndpointsProtocol=http;AccountName=leakcheck;AccountKey="
                + AZURE_KEY + ";BlobEndpoint=http://127.0.0.1:1/leakcheck;",
            "objlog.store.verify-conditional-writes=false", "objlog.store.verify-bucket=false"),
        new Scenario("azure, shared key", List.of(AZURE_KEY), false,
            "objlog.store.type=azure", "objlog.store.container=logs",
            "objlog.store.azure.endpoint=http://127.0.0.1:1/leakcheck", "objlog.store.azure.account-name=leakcheck",
            "objlog.store.azure.account-key=" + AZURE_KEY, "objlog.store.verify-conditional-writes=false", "objlog.store.verify-bucket=false"),
        new Scenario("azure, SAS token in the endpoint", List.of(SAS_SIGNATURE), false,
            "objlog.store.type=azure", "objlog.store.container=logs",
            "objlog.store.azure.endpoint=http://127.0.0.1:1/leakcheck?sv=2023-11-03&ss=b&srt=sco&sp=rwdlac"
                + "&se=2099-01-01T00:00:00Z&sig=" + SAS_SIGNATURE,
            "objlog.store.verify-conditional-writes=false", "objlog.store.verify-bucket=false"),
        new Scenario("gcs, service-account key file", gcsKey.secrets(), false,
            "objlog.store.type=gcs", "objlog.store.bucket=" + BUCKET, "objlog.store.gcs.project-id=leakcheck",
            "objlog.store.gcs.host=http://127.0.0.1:1",
            "objlog.store.gcs.credentials-location=file:" + gcsKey.file(),
            "objlog.store.verify-conditional-writes=false", "objlog.store.verify-bucket=false"));
    try {
      scan(scenarios);
    } finally {
      tokenEndpoint.stop(0);
    }
  }

  /** One application configuration, the secrets it holds, and whether its store can answer. */
  private record Scenario(String name, List<String> secrets, boolean storeAnswers, String... properties) {}

  private void scan(List<Scenario> scenarios) throws Exception {
    for (Scenario scenario : scenarios) {
      try (ConfigurableApplicationContext app = start(scenario.properties())) {
        List<String> bodies = new ArrayList<>();
        for (String path : List.of("/actuator/objlog", "/actuator/objlog/orders/0", "/actuator/objlog/orders/1",
            "/actuator/health", "/actuator/health/objlog", "/actuator/env", "/actuator/configprops")) {
          HttpResponse<String> response = get(app, path);
          if (path.endsWith("/env") || path.endsWith("/configprops")) {
            assertThat(response.statusCode()).as("%s: GET %s", scenario.name(), path).isEqualTo(200);
          }
          bodies.add(response.body());
        }
        String all = String.join("\n", bodies);
        String env = bodies.get(5);
        String configprops = bodies.get(6);
        // show-values really is on (a plain value shows), and our secret keys are there, masked.
        String type = scenario.properties()[0].substring("objlog.store.type=".length());
        assertThat(env).as("%s: env shows plain values", scenario.name())
            .contains("\"objlog.store.type\"").contains("\"value\":\"" + type + "\"");
        assertThat(configprops).as("%s: configprops shows objlog's properties", scenario.name())
            .contains("\"objlog\"").contains("\"" + type.toUpperCase(java.util.Locale.ROOT) + "\"");
        assertThat(all).as("%s: a secret key shown masked", scenario.name()).contains("******");
        // The scan saw the real thing: head fields when the store answers, error texts when not.
        assertThat(all).as(scenario.name()).contains("\"orders\"")
            .contains(scenario.storeAnswers() ? "\"nextLsn\"" : "\"error\"");
        for (String secret : scenario.secrets()) {
          for (String form : List.of(secret, URLEncoder.encode(secret, StandardCharsets.UTF_8),
              secret.substring(0, secret.length() / 2))) {
            assertThat(all).as("%s: actuator output contains the credential (%s)", scenario.name(), form)
                .doesNotContain(form);
          }
        }
      }
    }
  }

  @Test
  void writeOperationsAreUnavailableUnlessAccessIsRaised() throws Exception {
    List<String> writes = List.of("/actuator/objlog/orders/0/retention", "/actuator/objlog/orders/0/reclaim",
        "/actuator/objlog/orders/0/scrub", "/actuator/objlog/orders/0/verify", "/actuator/objlog/listeners/orders-audit");
    for (String access : new String[] {null, "read-only"}) {
      String[] properties = access == null ? new String[] {"objlog.store.type=memory"}
          : new String[] {"objlog.store.type=memory", "management.endpoint.objlog.access=" + access};
      try (ConfigurableApplicationContext app = start(properties)) {
        ObjlogListenerContainer listener = listener(app);
        assertThat(get(app, "/actuator/objlog").statusCode()).isEqualTo(200);
        for (String path : writes) {
          String body = path.endsWith("orders-audit") ? "{\"action\":\"pause\"}" : "{\"beforeLsn\":0}";
          assertThat(post(app, path, body).statusCode()).as("POST %s with access %s", path, access).isIn(404, 405);
        }
        assertThat(listener.isPauseRequested()).as("the refused pause had no effect").isFalse();
        assertThat(listener.isRunning()).isTrue();
      }
    }
    try (ConfigurableApplicationContext app = start("objlog.store.type=memory",
        "management.endpoint.objlog.access=unrestricted")) {
      ObjlogListenerContainer listener = listener(app);
      HttpResponse<String> paused = post(app, "/actuator/objlog/listeners/orders-audit", "{\"action\":\"pause\"}");
      assertThat(paused.statusCode()).isEqualTo(200);
      assertThat(listener.isPauseRequested()).isTrue();
      assertThat(post(app, "/actuator/objlog/listeners/orders-audit", "{\"action\":\"resume\"}").statusCode())
          .isEqualTo(200);
      assertThat(listener.isPauseRequested()).isFalse();
      assertThat(post(app, "/actuator/objlog/orders/0/reclaim", "{}").statusCode()).isEqualTo(200);
      HttpResponse<String> verified = post(app, "/actuator/objlog/orders/0/verify", "{\"segmentHashes\":true}");
      assertThat(verified.statusCode()).isEqualTo(200);
      assertThat(verified.body()).contains("\"segmentHashesChecked\":true");
    }
  }

  /**
   * A service-account JSON key with a freshly generated RSA key (GoogleCredentials parses it at
   * startup) and a token endpoint that refuses it, as a stand-in for a real key file.
   */
  record ServiceAccountKey(Path file, List<String> secrets) {
    static ServiceAccountKey write(Path file, String tokenUri) throws Exception {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
          .encodeToString(generator.generateKeyPair().getPrivate().getEncoded());
      String pem = "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n";
      String json = "{\"type\":\"service_account\",\"project_id\":\"leakcheck\","
          + "\"private_key_id\":\"0123456789abcdef0123456789abcdef01234567\","
          + "\"private_key\":\"" + pem.replace("\n", "\\n") + "\","
          + "\"client_email\":\"leakcheck@leakcheck.iam.gserviceaccount.com\",\"client_id\":\"1\","
          + "\"token_uri\":\"" + tokenUri + "\"}";
      Files.writeString(file, json);
      // Every 64-character line of the key is a secret; so is the whole JSON.
      List<String> secrets = new ArrayList<>(List.of(body.split("\n")));
      secrets.removeIf(line -> line.length() < 40);
      secrets.add(json);
      return new ServiceAccountKey(file, secrets);
    }
  }

  /**
   * An OAuth token endpoint that refuses every grant at once (a dead one is retried by
   * google-auth-library for minutes), as Google's does for a revoked key.
   */
  static com.sun.net.httpserver.HttpServer refusingTokenEndpoint() throws java.io.IOException {
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      byte[] body = "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}"
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(400, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    return server;
  }

  private static ObjlogListenerContainer listener(ConfigurableApplicationContext app) {
    return Objects.requireNonNull(app.getBean(ObjlogListenerEndpointRegistry.class).getListenerContainer("orders-audit"));
  }

  private static ConfigurableApplicationContext start(String... properties) {
    List<String> all = new ArrayList<>(List.of(COMMON));
    all.addAll(List.of(properties));
    return new SpringApplicationBuilder(App.class).web(WebApplicationType.SERVLET)
        .properties(all.toArray(String[]::new)).run();
  }

  private HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(app, path)).timeout(Duration.ofSeconds(60)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(ConfigurableApplicationContext app, String path, String json) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(app, path)).timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(ConfigurableApplicationContext app, String path) {
    return URI.create("http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port") + path);
  }

  /** The smallest application: auto-configuration, plus one listener so its write operations exist. */
  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    AuditListener auditListener() {
      return new AuditListener();
    }
  }

  static class AuditListener {
    @ObjlogListener(id = "orders-audit", stream = "orders")
    void onRecord(String value) {
      // Receiving is enough: the test is about the actuator, not about the records.
    }
  }
}
