package dev.objlog.store.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The precondition semantics of {@link FakeGcsServer}, over raw HTTP: the contract suite trusts it
 * to answer as GCS does, so its 412s and 304s are checked on their own.
 */
class FakeGcsServerTests {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String BUCKET = "fake-self-test";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static FakeGcsServer server;

  @BeforeAll
  static void start() throws Exception {
    server = FakeGcsServer.start();
    server.createBucket(BUCKET);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String name() {
    return "self/" + UUID.randomUUID();
  }

  private static String encoded(String name) {
    return URLEncoder.encode(name, UTF_8).replace("+", "%20");
  }

  private static HttpResponse<byte[]> upload(String name, String body, String condition) throws Exception {
    String boundary = "b0undary";
    String multipart =
        "--" + boundary + "\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
            + "{\"name\":\"" + name + "\"}\r\n--" + boundary
            + "\r\nContent-Type: application/octet-stream\r\n\r\n" + body + "\r\n--" + boundary + "--";
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.host() + "/upload/storage/v1/b/" + BUCKET
                + "/o?uploadType=multipart&" + condition))
            .header("Content-Type", "multipart/related; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofString(multipart))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static HttpResponse<byte[]> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(server.host() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static long generation(HttpResponse<byte[]> response) {
    JsonNode node = JSON.readTree(response.body());
    return Long.parseLong(node.path("generation").asString());
  }

  private static String media(String name) throws Exception {
    return new String(
        get("/download/storage/v1/b/" + BUCKET + "/o/" + encoded(name) + "?alt=media").body(), UTF_8);
  }

  @Test
  void createOnlyWithGenerationZeroAnswers412ForAnExistingObject() throws Exception {
    String name = name();
    HttpResponse<byte[]> first = upload(name, "first", "ifGenerationMatch=0");
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(upload(name, "second", "ifGenerationMatch=0").statusCode()).isEqualTo(412);
    assertThat(media(name)).isEqualTo("first");
  }

  @Test
  void generationMatchReplacesOnlyTheCurrentGenerationAndRaisesIt() throws Exception {
    String name = name();
    long first = generation(upload(name, "v1", "ifGenerationMatch=0"));
    HttpResponse<byte[]> second = upload(name, "v2", "ifGenerationMatch=" + first);
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(generation(second)).isGreaterThan(first);
    assertThat(upload(name, "v3", "ifGenerationMatch=" + first).statusCode()).isEqualTo(412);
    assertThat(upload(name("missing"), "x", "ifGenerationMatch=" + first).statusCode()).isEqualTo(412);
    assertThat(media(name)).isEqualTo("v2");
  }

  private static String name(String suffix) {
    return name() + "/" + suffix;
  }

  @Test
  void readsAnswer304WhileTheGenerationIsTheOneNamedInIfGenerationNotMatch() throws Exception {
    String name = name();
    long generation = generation(upload(name, "body", "ifGenerationMatch=0"));
    String object = "/storage/v1/b/" + BUCKET + "/o/" + encoded(name);
    String download = "/download/storage/v1/b/" + BUCKET + "/o/" + encoded(name) + "?alt=media";
    assertThat(get(object + "?ifGenerationNotMatch=" + generation).statusCode()).isEqualTo(304);
    assertThat(get(download + "&ifGenerationNotMatch=" + generation).statusCode()).isEqualTo(304);
    assertThat(get(object + "?ifGenerationNotMatch=" + (generation - 1)).statusCode()).isEqualTo(200);
    assertThat(get(download + "&ifGenerationMatch=" + (generation - 1)).statusCode()).isEqualTo(412);
    assertThat(get(download + "&ifGenerationMatch=" + generation).body()).isEqualTo("body".getBytes(UTF_8));
  }

  @Test
  void resumableUploadChecksItsConditionAgainWhenFinalized() throws Exception {
    String name = name();
    HttpResponse<byte[]> start =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.host() + "/upload/storage/v1/b/" + BUCKET
                    + "/o?uploadType=resumable&ifGenerationMatch=0"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(start.statusCode()).isEqualTo(200);
    URI session = URI.create(start.headers().firstValue("Location").orElseThrow());

    HttpResponse<byte[]> partial = put(session, "bytes 0-3/*", "abcd");
    assertThat(partial.statusCode()).isEqualTo(308);
    assertThat(partial.headers().firstValue("Range")).contains("bytes=0-3");

    assertThat(upload(name, "winner", "ifGenerationMatch=0").statusCode()).isEqualTo(200);
    assertThat(put(session, "bytes 4-5/6", "ef").statusCode()).isEqualTo(412);
    assertThat(media(name)).isEqualTo("winner");
  }

  private static HttpResponse<byte[]> put(URI session, String contentRange, String body) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(session)
            .header("Content-Range", contentRange)
            .PUT(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }
}
