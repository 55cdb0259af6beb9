package dev.objlog.store.gcs;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An in-memory server for the subset of the GCS JSON API that google-cloud-storage's HTTP
 * transport uses for objlog: buckets (create, get), multipart and resumable uploads, media
 * downloads with {@code Range}, object metadata, listing with prefix / startOffset / endOffset /
 * paging, and deletes, all honouring {@code ifGenerationMatch} / {@code ifGenerationNotMatch}.
 *
 * <p>It exists because nothing installable here honours GCS generation preconditions (see
 * TESTING.md). Every mutation and every precondition check happens under one lock, so racing
 * conditional writes behave as on GCS: exactly one wins. Generations increase with every write,
 * across all objects, as GCS's do.
 *
 * <p>Set the system property {@code objlog.fakegcs.log=true} (or the environment variable {@code
 * OBJLOG_FAKEGCS_LOG=true}) to print each request line.
 *
 * <p>Thread-safety: safe for concurrent requests; start and stop from one thread.
 */
final class FakeGcsServer implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final boolean LOG =
      Boolean.getBoolean("objlog.fakegcs.log") || "true".equals(System.getenv("OBJLOG_FAKEGCS_LOG"));

  private final Object lock = new Object();
  private final Map<String, TreeMap<String, StoredBlob>> buckets = new HashMap<>();
  private final Map<String, Session> sessions = new HashMap<>();
  private final AtomicLong generations = new AtomicLong(1_700_000_000_000_000L);
  private final AtomicLong mediaBytesServed = new AtomicLong();
  private final AtomicInteger faultsLeft = new AtomicInteger();
  private final List<ObjectWrite> objectWrites = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * A request that creates an object (a multipart upload, or the start of a resumable one, which
   * is where GCS takes the object's metadata and encryption key): its upload type, query
   * parameters and metadata, as received.
   */
  record ObjectWrite(String uploadType, String name, Map<String, String> query, JsonNode metadata) {}
  private volatile int faultStatus;
  private volatile @Nullable String faultMethod;
  private final HttpServer server;
  private final ExecutorService executor;

  private record StoredBlob(
      String bucket, String name, byte[] bytes, long generation, String contentType, Instant updated) {}

  private static final class Session {
    final String bucket;
    final String name;
    final String contentType;
    final Map<String, String> conditions;
    final ByteArrayOutputStream received = new ByteArrayOutputStream();
    @Nullable StoredBlob finalized;

    Session(String bucket, String name, String contentType, Map<String, String> conditions) {
      this.bucket = bucket;
      this.name = name;
      this.contentType = contentType;
      this.conditions = conditions;
    }
  }

  /** A failed request, answered with a GCS-shaped JSON error. */
  private static final class Answer extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;
    final String reason;

    Answer(int status, String reason, String message) {
      super(message, null, false, false);
      this.status = status;
      this.reason = reason;
    }
  }

  private FakeGcsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts a server on 127.0.0.1 and an ephemeral port. */
  static FakeGcsServer start() throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ExecutorService executor = Executors.newFixedThreadPool(16);
    http.setExecutor(executor);
    FakeGcsServer fake = new FakeGcsServer(http, executor);
    http.createContext("/", fake::handle);
    http.start();
    return fake;
  }

  /** The host to give {@code StorageOptions.Builder.setHost}. */
  String host() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Creates a bucket directly, bypassing HTTP. */
  void createBucket(String bucket) {
    synchronized (lock) {
      buckets.putIfAbsent(bucket, new TreeMap<>(FakeGcsServer::compareNames));
    }
  }

  /** Resumable sessions started but neither finalized nor expired: what an aborted upload leaves. */
  int openSessions() {
    synchronized (lock) {
      return (int) sessions.values().stream().filter(s -> s.finalized == null).count();
    }
  }

  /** Every object-creating request so far, in arrival order. */
  List<ObjectWrite> objectWrites() {
    return List.copyOf(objectWrites);
  }

  /** Body bytes sent by media downloads so far. */
  long mediaBytesServed() {
    return mediaBytesServed.get();
  }

  /**
   * Answers the next {@code count} requests with {@code method} (any method when null) with
   * {@code status} instead of serving them; nothing is applied.
   */
  void failNext(int count, int status, @Nullable String method) {
    faultStatus = status;
    faultMethod = method;
    faultsLeft.set(count);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  // --- dispatch -----------------------------------------------------------------------------

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String rawPath = exchange.getRequestURI().getRawPath();
      Map<String, String> query = parseQuery(exchange.getRequestURI().getRawQuery());
      if (LOG) {
        System.err.println("fake-gcs: " + method + " " + exchange.getRequestURI()
            + rangeSuffix(exchange));
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
        body = new GZIPInputStream(new ByteArrayInputStream(body)).readAllBytes();
      }
      try {
        String onlyMethod = faultMethod;
        boolean matches = onlyMethod == null || onlyMethod.equals(method);
        if (matches && faultsLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          String reason = faultStatus == 429 ? "rateLimitExceeded" : "injected";
          throw new Answer(faultStatus, reason, "injected fault");
        }
        route(exchange, method, segments(rawPath), query, body);
      } catch (Answer answer) {
        sendError(exchange, answer.status, answer.reason, answer.getMessage());
      } catch (RuntimeException e) {
        sendError(exchange, 500, "backendError", String.valueOf(e));
      }
    }
  }

  private static String rangeSuffix(HttpExchange exchange) {
    String range = exchange.getRequestHeaders().getFirst("Range");
    String contentRange = exchange.getRequestHeaders().getFirst("Content-Range");
    return (range == null ? "" : " Range: " + range)
        + (contentRange == null ? "" : " Content-Range: " + contentRange);
  }

  private void route(
      HttpExchange ex, String method, List<String> path, Map<String, String> query, byte[] body)
      throws IOException {
    // /storage/v1/b, /storage/v1/b/{b}, /storage/v1/b/{b}/o, /storage/v1/b/{b}/o/{o}
    if (path.size() >= 3 && path.get(0).equals("storage") && path.get(2).equals("b")) {
      if (path.size() == 3 && method.equals("POST")) {
        createBucket(ex, body);
        return;
      }
      if (path.size() == 4 && method.equals("GET")) {
        getBucket(ex, path.get(3));
        return;
      }
      if (path.size() == 5 && path.get(4).equals("o") && method.equals("GET")) {
        list(ex, path.get(3), query);
        return;
      }
      if (path.size() == 6 && path.get(4).equals("o")) {
        switch (method) {
          case "GET" -> {
            if ("media".equals(query.get("alt"))) {
              download(ex, path.get(3), path.get(5), query);
            } else {
              metadata(ex, path.get(3), path.get(5), query);
            }
            return;
          }
          case "DELETE" -> {
            delete(ex, path.get(3), path.get(5), query);
            return;
          }
          default -> {}
        }
      }
    }
    // /download/storage/v1/b/{b}/o/{o}
    if (path.size() == 7 && path.get(0).equals("download") && path.get(5).equals("o")
        && method.equals("GET")) {
      download(ex, path.get(4), path.get(6), query);
      return;
    }
    // /upload/storage/v1/b/{b}/o
    if (path.size() == 6 && path.get(0).equals("upload") && path.get(5).equals("o")) {
      String type = query.getOrDefault("uploadType", "");
      if (method.equals("POST") && type.equals("multipart")) {
        multipartUpload(ex, path.get(4), query, body);
        return;
      }
      if (method.equals("POST") && type.equals("resumable")) {
        startResumable(ex, path.get(4), query, body);
        return;
      }
      if (method.equals("PUT") && query.containsKey("upload_id")) {
        continueResumable(ex, query.get("upload_id"), body);
        return;
      }
      if (method.equals("DELETE") && query.containsKey("upload_id")) {
        cancelResumable(ex, query.get("upload_id"));
        return;
      }
    }
    throw new Answer(400, "invalid", "unsupported request " + method + " " + path + " " + query);
  }

  // --- buckets ------------------------------------------------------------------------------

  private void createBucket(HttpExchange ex, byte[] body) throws IOException {
    String name = JSON.readTree(body).path("name").asString();
    synchronized (lock) {
      if (buckets.containsKey(name)) {
        throw new Answer(409, "conflict", "bucket " + name + " already exists");
      }
      buckets.put(name, new TreeMap<>(FakeGcsServer::compareNames));
    }
    sendJson(ex, 200, bucketJson(name));
  }

  private void getBucket(HttpExchange ex, String name) throws IOException {
    synchronized (lock) {
      if (!buckets.containsKey(name)) {
        throw new Answer(404, "notFound", "bucket " + name + " not found");
      }
    }
    sendJson(ex, 200, bucketJson(name));
  }

  private static ObjectNode bucketJson(String name) {
    ObjectNode node = JSON.createObjectNode();
    node.put("kind", "storage#bucket");
    node.put("id", name);
    node.put("name", name);
    node.put("location", "US");
    node.put("storageClass", "STANDARD");
    node.put("metageneration", "1");
    node.put("timeCreated", Instant.now().toString());
    node.put("updated", Instant.now().toString());
    return node;
  }

  private TreeMap<String, StoredBlob> bucket(String name) {
    TreeMap<String, StoredBlob> objects = buckets.get(name);
    if (objects == null) {
      throw new Answer(404, "notFound", "bucket " + name + " not found");
    }
    return objects;
  }

  // --- reads --------------------------------------------------------------------------------

  /** Looks up an object and applies the read preconditions. Call under the lock. */
  private StoredBlob readable(String bucket, String name, Map<String, String> query) {
    StoredBlob blob = bucket(bucket).get(name);
    String generation = query.get("generation");
    if (blob == null || (generation != null && Long.parseLong(generation) != blob.generation())) {
      throw new Answer(404, "notFound", "no such object: " + bucket + "/" + name);
    }
    String match = query.get("ifGenerationMatch");
    if (match != null && Long.parseLong(match) != blob.generation()) {
      throw new Answer(412, "conditionNotMet", "ifGenerationMatch " + match + " failed");
    }
    String notMatch = query.get("ifGenerationNotMatch");
    if (notMatch != null && Long.parseLong(notMatch) == blob.generation()) {
      throw new Answer(304, "notModified", "not modified");
    }
    return blob;
  }

  private void metadata(HttpExchange ex, String bucket, String name, Map<String, String> query)
      throws IOException {
    StoredBlob blob;
    synchronized (lock) {
      blob = readable(bucket, name, query);
    }
    sendJson(ex, 200, objectJson(blob));
  }

  private void download(HttpExchange ex, String bucket, String name, Map<String, String> query)
      throws IOException {
    StoredBlob blob;
    synchronized (lock) {
      blob = readable(bucket, name, query);
    }
    byte[] bytes = blob.bytes();
    var headers = ex.getResponseHeaders();
    headers.set("Content-Type", blob.contentType());
    headers.set("x-goog-generation", Long.toString(blob.generation()));
    headers.set("x-goog-metageneration", "1");
    headers.set("x-goog-stored-content-length", Integer.toString(bytes.length));
    headers.set("x-goog-stored-content-encoding", "identity");
    String range = ex.getRequestHeaders().getFirst("Range");
    if (range == null) {
      mediaBytesServed.addAndGet(bytes.length);
      send(ex, 200, bytes);
      return;
    }
    long[] r = parseRange(range, bytes.length);
    if (r == null) {
      headers.set("Content-Range", "bytes */" + bytes.length);
      throw new Answer(416, "requestedRangeNotSatisfiable", "range " + range + " not satisfiable");
    }
    headers.set("Content-Range", "bytes " + r[0] + "-" + r[1] + "/" + bytes.length);
    mediaBytesServed.addAndGet(r[1] + 1 - r[0]);
    send(ex, 206, Arrays.copyOfRange(bytes, (int) r[0], (int) r[1] + 1));
  }

  /** {@code bytes=a-b}, {@code bytes=a-} or {@code bytes=-n}; null when unsatisfiable. */
  private static long @Nullable [] parseRange(String header, long size) {
    if (!header.startsWith("bytes=") || header.contains(",")) {
      throw new Answer(400, "invalid", "unsupported Range " + header);
    }
    String spec = header.substring("bytes=".length()).trim();
    int dash = spec.indexOf('-');
    String from = spec.substring(0, dash);
    String to = spec.substring(dash + 1);
    long first;
    long last;
    if (from.isEmpty()) {
      long suffix = Long.parseLong(to);
      first = Math.max(0, size - suffix);
      last = size - 1;
    } else {
      first = Long.parseLong(from);
      last = to.isEmpty() ? size - 1 : Math.min(Long.parseLong(to), size - 1);
    }
    if (first >= size || last < first) {
      return null;
    }
    return new long[] {first, last};
  }

  private void list(HttpExchange ex, String bucket, Map<String, String> query) throws IOException {
    String prefix = query.getOrDefault("prefix", "");
    String startOffset = query.get("startOffset");
    String endOffset = query.get("endOffset");
    String pageToken = query.get("pageToken");
    int maxResults = Math.min(1000, Integer.parseInt(query.getOrDefault("maxResults", "1000")));
    if (maxResults < 1) {
      throw new Answer(400, "invalid", "maxResults must be positive");
    }
    String after = pageToken == null ? null : new String(Base64.getUrlDecoder().decode(pageToken), UTF_8);
    List<StoredBlob> page = new ArrayList<>();
    boolean more = false;
    synchronized (lock) {
      for (StoredBlob blob : bucket(bucket).values()) {
        String name = blob.name();
        if (!name.startsWith(prefix)
            || (startOffset != null && compareNames(name, startOffset) < 0)
            || (endOffset != null && compareNames(name, endOffset) >= 0)
            || (after != null && compareNames(name, after) <= 0)) {
          continue;
        }
        if (page.size() == maxResults) {
          more = true;
          break;
        }
        page.add(blob);
      }
    }
    ObjectNode node = JSON.createObjectNode();
    node.put("kind", "storage#objects");
    if (!page.isEmpty()) {
      ArrayNode items = node.putArray("items");
      page.forEach(blob -> items.add(objectJson(blob)));
    }
    if (more) {
      String last = page.get(page.size() - 1).name();
      node.put("nextPageToken", Base64.getUrlEncoder().encodeToString(last.getBytes(UTF_8)));
    }
    sendJson(ex, 200, node);
  }

  // --- writes -------------------------------------------------------------------------------

  /** Checks the write preconditions against the current object. Call under the lock. */
  private static void checkWrite(@Nullable StoredBlob current, Map<String, String> query) {
    String match = query.get("ifGenerationMatch");
    if (match != null) {
      long expected = Long.parseLong(match);
      long actual = current == null ? 0 : current.generation();
      if (expected != actual) {
        throw new Answer(412, "conditionNotMet", "ifGenerationMatch " + match + " failed");
      }
    }
    String notMatch = query.get("ifGenerationNotMatch");
    if (notMatch != null) {
      long actual = current == null ? 0 : current.generation();
      if (Long.parseLong(notMatch) == actual) {
        throw new Answer(412, "conditionNotMet", "ifGenerationNotMatch " + notMatch + " failed");
      }
    }
  }

  private StoredBlob write(
      String bucket, String name, byte[] bytes, String contentType, Map<String, String> conditions) {
    synchronized (lock) {
      TreeMap<String, StoredBlob> objects = bucket(bucket);
      checkWrite(objects.get(name), conditions);
      StoredBlob blob =
          new StoredBlob(bucket, name, bytes, generations.incrementAndGet(), contentType, Instant.now());
      objects.put(name, blob);
      return blob;
    }
  }

  private void multipartUpload(HttpExchange ex, String bucket, Map<String, String> query, byte[] body)
      throws IOException {
    String contentType = Objects.requireNonNullElse(ex.getRequestHeaders().getFirst("Content-Type"), "");
    List<byte[]> parts = multipartParts(contentType, body);
    if (parts.size() != 2) {
      throw new Answer(400, "invalid", "expected metadata and media parts, got " + parts.size());
    }
    JsonNode metadata = JSON.readTree(parts.get(0));
    byte[] media = parts.get(1);
    String name = metadata.path("name").asString(query.getOrDefault("name", ""));
    if (name.isEmpty()) {
      throw new Answer(400, "required", "object name missing");
    }
    verifyHashes(metadata, media);
    objectWrites.add(new ObjectWrite("multipart", name, Map.copyOf(query), metadata));
    String type = metadata.path("contentType").asString("application/octet-stream");
    sendJson(ex, 200, objectJson(write(bucket, name, media, type, conditions(query))));
  }

  /** GCS rejects an upload whose declared hashes differ from the bytes; so do we. */
  private static void verifyHashes(JsonNode metadata, byte[] media) {
    String md5 = metadata.path("md5Hash").asString("");
    if (!md5.isEmpty() && !md5.equals(md5(media))) {
      throw new Answer(400, "invalid", "md5Hash does not match the uploaded bytes");
    }
    String crc = metadata.path("crc32c").asString("");
    if (!crc.isEmpty() && !crc.equals(crc32c(media))) {
      throw new Answer(400, "invalid", "crc32c does not match the uploaded bytes");
    }
  }

  private static Map<String, String> conditions(Map<String, String> query) {
    Map<String, String> conditions = new HashMap<>();
    for (String key : List.of("ifGenerationMatch", "ifGenerationNotMatch")) {
      if (query.containsKey(key)) {
        conditions.put(key, query.get(key));
      }
    }
    return conditions;
  }

  private void startResumable(HttpExchange ex, String bucket, Map<String, String> query, byte[] body)
      throws IOException {
    JsonNode metadata = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
    String name = metadata.path("name").asString(query.getOrDefault("name", ""));
    if (name.isEmpty()) {
      throw new Answer(400, "required", "object name missing");
    }
    objectWrites.add(new ObjectWrite("resumable", name, Map.copyOf(query), metadata));
    String type = metadata.path("contentType").asString("application/octet-stream");
    Map<String, String> conditions = conditions(query);
    String id = UUID.randomUUID().toString();
    synchronized (lock) {
      // GCS checks the preconditions when the session starts and again when it is finalized.
      checkWrite(bucket(bucket).get(name), conditions);
      sessions.put(id, new Session(bucket, name, type, conditions));
    }
    ex.getResponseHeaders()
        .set("Location", host() + "/upload/storage/v1/b/" + bucket + "/o?uploadType=resumable&upload_id=" + id);
    send(ex, 200, new byte[0]);
  }

  private void continueResumable(HttpExchange ex, String id, byte[] body) throws IOException {
    String contentRange = ex.getRequestHeaders().getFirst("Content-Range");
    StoredBlob done;
    long persisted;
    synchronized (lock) {
      Session session = sessions.get(id);
      if (session == null) {
        throw new Answer(404, "notFound", "no such upload session " + id);
      }
      if (session.finalized != null) {
        done = session.finalized;
        persisted = done.bytes().length;
      } else {
        long total = -1;
        if (contentRange != null) {
          // "bytes a-b/total", "bytes a-b/*", "bytes */total" or "bytes */*"
          String spec = contentRange.trim().substring("bytes ".length());
          String[] rangeAndTotal = spec.split("/");
          String totalText = rangeAndTotal[1];
          total = totalText.equals("*") ? -1 : Long.parseLong(totalText);
          if (!rangeAndTotal[0].equals("*")) {
            long first = Long.parseLong(rangeAndTotal[0].substring(0, rangeAndTotal[0].indexOf('-')));
            long have = session.received.size();
            if (first > have) {
              throw new Answer(400, "invalid", "upload gap: have " + have + ", got offset " + first);
            }
            int skip = (int) (have - first);
            if (skip < body.length) {
              session.received.write(body, skip, body.length - skip);
            }
          }
        } else if (body.length > 0) {
          session.received.write(body, 0, body.length);
          total = session.received.size();
        }
        persisted = session.received.size();
        if (total >= 0 && persisted == total) {
          try {
            session.finalized =
                write(session.bucket, session.name, session.received.toByteArray(), session.contentType,
                    session.conditions);
          } catch (Answer failed) {
            sessions.remove(id);
            throw failed;
          }
          done = session.finalized;
        } else {
          done = null;
        }
      }
    }
    if (done != null) {
      sendJson(ex, 200, objectJson(done));
      return;
    }
    if (persisted > 0) {
      ex.getResponseHeaders().set("Range", "bytes=0-" + (persisted - 1));
    }
    ex.getResponseHeaders().set("X-GUploader-UploadID", id);
    send(ex, 308, new byte[0]);
  }

  private void cancelResumable(HttpExchange ex, String id) throws IOException {
    synchronized (lock) {
      sessions.remove(id);
    }
    sendError(ex, 499, "clientClosedRequest", "upload cancelled");
  }

  private void delete(HttpExchange ex, String bucket, String name, Map<String, String> query)
      throws IOException {
    synchronized (lock) {
      TreeMap<String, StoredBlob> objects = bucket(bucket);
      StoredBlob current = objects.get(name);
      if (current == null) {
        throw new Answer(404, "notFound", "no such object: " + bucket + "/" + name);
      }
      checkWrite(current, conditions(query));
      objects.remove(name);
    }
    send(ex, 204, null);
  }

  // --- encoding -----------------------------------------------------------------------------

  private static ObjectNode objectJson(StoredBlob blob) {
    ObjectNode node = JSON.createObjectNode();
    node.put("kind", "storage#object");
    node.put("id", blob.bucket() + "/" + blob.name() + "/" + blob.generation());
    node.put("name", blob.name());
    node.put("bucket", blob.bucket());
    node.put("generation", Long.toString(blob.generation()));
    node.put("metageneration", "1");
    node.put("contentType", blob.contentType());
    node.put("size", Integer.toString(blob.bytes().length));
    node.put("md5Hash", md5(blob.bytes()));
    node.put("crc32c", crc32c(blob.bytes()));
    node.put("etag", Long.toHexString(blob.generation()));
    node.put("storageClass", "STANDARD");
    node.put("timeCreated", blob.updated().toString());
    node.put("updated", blob.updated().toString());
    return node;
  }

  private static String md5(byte[] bytes) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String crc32c(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes);
    return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
  }

  private static void sendJson(HttpExchange ex, int status, JsonNode node) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    send(ex, status, JSON.writeValueAsBytes(node));
  }

  private static void sendError(HttpExchange ex, int status, String reason, String message)
      throws IOException {
    if (status == 304) {
      send(ex, 304, null);
      return;
    }
    ObjectNode error = JSON.createObjectNode();
    ObjectNode inner = error.putObject("error");
    inner.put("code", status);
    inner.put("message", message);
    ObjectNode detail = inner.putArray("errors").addObject();
    detail.put("domain", "global");
    detail.put("reason", reason);
    detail.put("message", message);
    sendJson(ex, status, error);
  }

  private static void send(HttpExchange ex, int status, byte @Nullable [] body) throws IOException {
    if (body == null || status == 204 || status == 304) {
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  // --- parsing ------------------------------------------------------------------------------

  private static List<String> segments(String rawPath) {
    List<String> segments = new ArrayList<>();
    for (String segment : rawPath.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(percentDecode(segment));
      }
    }
    return segments;
  }

  private static Map<String, String> parseQuery(@Nullable String rawQuery) {
    Map<String, String> query = new LinkedHashMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return query;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      query.put(percentDecode(key.replace('+', ' ')), percentDecode(value.replace('+', ' ')));
    }
    return query;
  }

  /** Decodes %XX escapes as UTF-8 without treating '+' specially (paths keep '+' literal). */
  private static String percentDecode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' && i + 2 < s.length()) {
        out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(UTF_8);
        out.write(b, 0, b.length);
      }
    }
    return out.toString(UTF_8);
  }

  private static List<byte[]> multipartParts(String contentType, byte[] body) {
    int at = contentType.indexOf("boundary=");
    if (!contentType.startsWith("multipart/related") || at < 0) {
      throw new Answer(400, "invalid", "expected multipart/related, got " + contentType);
    }
    String boundary = contentType.substring(at + "boundary=".length()).trim();
    int semicolon = boundary.indexOf(';');
    if (semicolon >= 0) {
      boundary = boundary.substring(0, semicolon);
    }
    boundary = boundary.replace("\"", "");
    byte[] delimiter = ("--" + boundary).getBytes(UTF_8);
    List<byte[]> parts = new ArrayList<>();
    int pos = indexOf(body, delimiter, 0);
    while (pos >= 0) {
      int afterDelimiter = pos + delimiter.length;
      if (afterDelimiter + 1 < body.length && body[afterDelimiter] == '-' && body[afterDelimiter + 1] == '-') {
        break;
      }
      int headersEnd = indexOf(body, "\r\n\r\n".getBytes(UTF_8), afterDelimiter);
      int next = indexOf(body, ("\r\n--" + boundary).getBytes(UTF_8), headersEnd + 4);
      if (headersEnd < 0 || next < 0) {
        throw new Answer(400, "invalid", "malformed multipart body");
      }
      parts.add(Arrays.copyOfRange(body, headersEnd + 4, next));
      pos = next + 2;
    }
    return parts;
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = Math.max(0, from); i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** GCS orders names by their UTF-8 bytes. */
  static int compareNames(String a, String b) {
    return Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8));
  }
}
