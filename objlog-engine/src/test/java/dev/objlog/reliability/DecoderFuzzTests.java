package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.ObjlogException;
import dev.objlog.SnapshotMarker;
import dev.objlog.format.HashAlgorithm;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.format.key.StreamIds;
import dev.objlog.format.segment.BlockInfo;
import dev.objlog.format.segment.RangeReader;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SequentialSegmentReader;
import dev.objlog.coordination.json.JsonReader;
import dev.objlog.internal.retention.RetentionMailbox;
import dev.objlog.internal.retention.SnapshotMarkerFuzzAccess;
import dev.objlog.lifecycle.GcStateFuzzAccess;
import dev.objlog.read.CursorCheckpoint;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile input (issue #9): every decoder is fed seeded random mutations of the conformance vectors
 * (and of well-formed JSON objects for the JSON codecs). Each case must either decode or fail with
 * a typed {@link ObjlogException}; never a runtime exception, an {@link Error} (stack overflow,
 * out of memory) or an allocation beyond {@link #MAX_ALLOCATION_PER_CASE}.
 *
 * <p>The count comes from {@code OBJLOG_FUZZ_CASES} (100 000 under CI=true, 10 000 otherwise), the
 * base seed from {@code OBJLOG_FUZZ_SEED} (fixed default, so CI runs the same cases every time).
 * Binary catalog objects are resealed (both trailer hashes recomputed) in half the cases so the
 * mutation reaches the semantic checks behind the integrity hash.
 */
class DecoderFuzzTests {
  static final long DEFAULT_SEED = 0x0b1e_c7f0_22L;
  /** Format maxima allow one 20 MiB stored block plus its 16 MiB decompressed copy; more is a bug. */
  static final long MAX_ALLOCATION_PER_CASE = 64L << 20;

  private static final String STREAM = "fuzz/orders";
  private static final int PARTITION = 7;
  private static final PartitionKeys KEYS = PartitionKeys.of("", "", STREAM, PARTITION);

  private record Target(String name, List<byte[]> seeds, boolean json, HashAlgorithm reseal,
      Consumer<byte[]> decode) {}

  private record Outcome(String target, long caseIndex, String mutation, byte[] input, Throwable thrown,
      long allocated) {}

  @Test
  @Timeout(600)
  void everyDecoderRejectsMutatedInputWithTypedExceptionsOnly() throws Exception {
    int cases = Budgets.fuzzCases();
    long base = Budgets.fixedSeed(Budgets.FUZZ_SEED).orElse(DEFAULT_SEED);
    List<Target> targets = targets();
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();

    Map<String, Map<String, Integer>> outcomes = new TreeMap<>();
    Map<String, Long> maxAllocated = new TreeMap<>();
    List<Outcome> failures = new ArrayList<>();
    long started = System.nanoTime();
    for (long i = 0; i < cases; i++) {
      Target target = targets.get((int) (i % targets.size()));
      SplittableRandom random = new SplittableRandom(base * 0x9E37_79B9_7F4A_7C15L + i);
      byte[] seed = target.seeds().get(random.nextInt(target.seeds().size()));
      StringBuilder how = new StringBuilder();
      byte[] input = target.json() && random.nextBoolean()
          ? Mutator.mutateJson(seed, random, how)
          : Mutator.mutateBytes(seed, random, how);
      if (target.reseal() != null && input.length >= 32 && random.nextBoolean()) {
        input = reseal(input, target.reseal());
        how.append(" reseal");
      }
      long before = threads.getThreadAllocatedBytes(thread);
      Throwable thrown = null;
      try {
        target.decode().accept(input);
      } catch (Throwable t) {
        thrown = t;
      }
      long allocated = threads.getThreadAllocatedBytes(thread) - before;
      maxAllocated.merge(target.name(), allocated, Math::max);
      String kind = thrown == null ? "accepted" : thrown.getClass().getSimpleName();
      outcomes.computeIfAbsent(target.name(), k -> new TreeMap<>()).merge(kind, 1, Integer::sum);
      boolean typed = thrown == null || thrown instanceof ObjlogException;
      if ((!typed || allocated > MAX_ALLOCATION_PER_CASE) && failures.size() < 20) {
        failures.add(new Outcome(target.name(), i, how.toString(), input, thrown, allocated));
      }
    }
    long millis = (System.nanoTime() - started) / 1_000_000;
    System.out.printf("decoder fuzz: %d cases, base seed %d, %d ms, outcomes %s, max allocation per case %s%n",
        cases, base, millis, outcomes, maxAllocated);

    StringBuilder report = new StringBuilder();
    for (Outcome f : failures) {
      report.append("\n  ").append(f.target()).append(" case ").append(f.caseIndex())
          .append(" [").append(f.mutation()).append("] allocated ").append(f.allocated())
          .append(" B -> ").append(f.thrown())
          .append("\n    input ").append(hex(f.input()))
          .append("\n    replay: OBJLOG_FUZZ_SEED=").append(base).append(" OBJLOG_FUZZ_CASES=")
          .append(f.caseIndex() + 1);
      if (f.thrown() != null && !(f.thrown() instanceof ObjlogException)) {
        StackTraceElement[] st = f.thrown().getStackTrace();
        for (int k = 0; k < Math.min(6, st.length); k++) {
          report.append("\n      at ").append(st[k]);
        }
      }
    }
    assertThat(failures).as("untyped failures or unbounded allocation:%s", report).isEmpty();
  }

  private static String hex(byte[] b) {
    String h = HexFormat.of().formatHex(b, 0, Math.min(b.length, 160));
    return b.length > 160 ? h + "... (" + b.length + " B)" : h;
  }

  /** Recomputes a catalog object's trailer hashes (FORMAT.md: body hash, then trailer self-hash). */
  static byte[] reseal(byte[] bytes, HashAlgorithm algorithm) {
    byte[] out = bytes.clone();
    int at = out.length - 32;
    ByteBuffer b = ByteBuffer.wrap(out);
    b.putLong(at + 8, algorithm.hash(out, 0, at));
    byte[] trailer = Arrays.copyOfRange(out, at, out.length);
    Arrays.fill(trailer, 16, 24, (byte) 0);
    b.putLong(at + 16, algorithm.hash(trailer, 0, 32));
    return out;
  }

  static List<Target> targets() throws IOException {
    List<Target> targets = new ArrayList<>();
    Path catalog = Path.of(System.getProperty("objlog.conformance.catformat",
        "src/test/resources/conformance/catformat/v1"));
    for (String alg : List.of("crc32c", "xxh64")) {
      HashAlgorithm hash = alg.equals("crc32c") ? HashAlgorithm.CRC32C : HashAlgorithm.XXH64;
      List<byte[]> heads = files(catalog, "head-" + alg + ".plc");
      List<byte[]> pages = files(catalog, "page-" + alg + ".plc");
      if (!heads.isEmpty()) {
        targets.add(new Target("catalog head " + alg, heads, false, hash, CatalogCodec::decodeHead));
      }
      if (!pages.isEmpty()) {
        targets.add(new Target("catalog page " + alg, pages, false, hash, CatalogCodec::decodePage));
      }
    }
    assertThat(targets).as("catalog vectors under %s", catalog).hasSizeGreaterThanOrEqualTo(3);

    String segformat = System.getProperty("objlog.conformance.segformat");
    List<byte[]> segments = segformat == null ? List.of() : files(Path.of(segformat), ".plseg");
    if (segments.isEmpty() && Budgets.ci()) {
      throw new AssertionError("segment conformance corpus missing under CI=true: " + segformat);
    }
    if (!segments.isEmpty()) {
      targets.add(new Target("segment random access", segments, false, null, b -> {
        SegmentReader reader = SegmentReader.open(RangeReader.ofBytes(b), b.length);
        reader.records().forEachRemaining(r -> { });
        for (BlockInfo block : reader.blocks()) {
          reader.lsnForTimestamp(block.maxTimestampMs());
        }
      }));
      targets.add(new Target("segment sequential", segments, false, null, SequentialSegmentReader::readAll));
    }

    targets.add(new Target("cursor checkpoint", List.of(
        CursorCheckpoint.of("demo/orders", 7, 4).toJsonBytes(),
        CursorCheckpoint.of(STREAM, 0, -1L).toJsonBytes()), true, null, CursorCheckpoint::parse));
    targets.add(new Target("retention mailbox", List.of(
        ("{\"version\":1,\"stream_id\":\"" + STREAM + "\",\"partition\":7,\"policy_version\":3,"
            + "\"before_lsn\":42,\"created_unix_ms\":1700000000000}").getBytes(UTF_8)),
        true, null, b -> RetentionMailbox.decode(b, KEYS)));
    targets.add(new Target("snapshot marker", List.of(SnapshotMarkerFuzzAccess.encode(
        new SnapshotMarker(STREAM, PARTITION, 41, "snapshots/p7/00041.bin", 1_700_000_000_000L))),
        true, null, b -> SnapshotMarkerFuzzAccess.decode(b, KEYS)));
    targets.add(new Target("reclaimer state", List.of(GcStateFuzzAccess.sample(STREAM, PARTITION)),
        true, null, b -> GcStateFuzzAccess.decode(b, STREAM, PARTITION)));
    targets.add(new Target("json object", List.of(
        "{\"a\":[1,2,{\"b\":\"c\\u0041\"}],\"d\":-0.5e3,\"e\":null,\"f\":true}".getBytes(UTF_8)),
        true, null, b -> JsonReader.parseObject(b, "fuzz")));
    // Seeds at the edges of the rules (issue #13): exactly 512 bytes with a multi-byte character
    // last, characters right beside the control ranges, surrounding '/', dot-like segments.
    targets.add(new Target("stream id", List.of("demo/orders".getBytes(UTF_8),
        "tenant-a/region_1/orders.v2".getBytes(UTF_8),
        ("a".repeat(510) + "\u00e9").getBytes(UTF_8),
        ("/x/" + "b".repeat(505) + "\u20ac/").getBytes(UTF_8),
        "a\u00a0b~c/\u00a1/.../..x/x..".getBytes(UTF_8),
        "\u4e8b\u4ef6/\ud83d\ude00/\u0085".getBytes(UTF_8)), false, null, DecoderFuzzTests::acceptCanonicalStreamId));
    return targets;
  }

  /**
   * Decodes a stream id and, when it is accepted, checks that what came out is canonical by
   * FORMAT.md 3.1 (checked here independently of {@link StreamIds}) and round-trips: canonical
   * again unchanged, through UTF-8 and through a JSON document (the cursor checkpoint) to the same
   * string, the same stream key and the same object keys. An {@link AssertionError} is an untyped
   * failure for the fuzz loop, so a non-canonical id that is accepted fails the run.
   */
  static void acceptCanonicalStreamId(byte[] input) {
    String id = StreamIds.canonical(input);
    String problem = specProblem(id);
    if (problem != null) {
      throw new AssertionError("accepted a stream id that FORMAT.md 3.1 forbids (" + problem + "): "
          + HexFormat.of().formatHex(id.getBytes(UTF_8)));
    }
    String again = StreamIds.canonical(id);
    String viaBytes = StreamIds.canonical(id.getBytes(UTF_8));
    String viaJson = CursorCheckpoint.parse(CursorCheckpoint.of(id, PARTITION, 0).toJsonBytes()).streamId();
    PartitionKeys keys = PartitionKeys.of("", "", id, PARTITION);
    for (String other : List.of(again, viaBytes, viaJson)) {
      if (!other.equals(id)
          || !StreamIds.streamKeyHex(other).equals(StreamIds.streamKeyHex(id))
          || !PartitionKeys.of("", "", other, PARTITION).head().equals(keys.head())) {
        throw new AssertionError("stream id does not round-trip: " + HexFormat.of().formatHex(id.getBytes(UTF_8))
            + " came back as " + HexFormat.of().formatHex(other.getBytes(UTF_8)));
      }
    }
    if (!keys.parse(keys.head()).key().equals(keys.head())) {
      throw new AssertionError("the head key of an accepted stream id does not parse back: " + keys.head());
    }
  }

  /** FORMAT.md 3.1's rules for a canonical id, by code point; null when {@code id} obeys them. */
  static String specProblem(String id) {
    if (id.isEmpty()) {
      return "empty";
    }
    if (id.startsWith("/") || id.endsWith("/")) {
      return "surrounding '/'";
    }
    if (id.getBytes(UTF_8).length > 512) {
      return "over 512 bytes";
    }
    for (int i = 0; i < id.length(); ) {
      int cp = id.codePointAt(i);
      if (Character.isSurrogate((char) cp) && cp < 0x10000) {
        return "unpaired surrogate";
      }
      if (cp <= 0x1F || (cp >= 0x7F && cp <= 0x9F)) {
        return String.format("control U+%04X", cp);
      }
      i += Character.charCount(cp);
    }
    for (String segment : id.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        return "segment '" + segment + "'";
      }
    }
    return null;
  }

  private static List<byte[]> files(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      List<byte[]> out = new ArrayList<>();
      for (Path p : s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList()) {
        out.add(Files.readAllBytes(p));
      }
      return out;
    }
  }

  /** Seeded mutations: byte-level for every target, token-level for JSON. */
  static final class Mutator {
    private static final long[] INTERESTING = {0, 1, -1, 0x7F, 0x80, 0xFF, 0x7FFF_FFFFL, 0x8000_0000L,
        0xFFFF_FFFFL, 1L << 20, 1L << 31, Long.MAX_VALUE, Long.MIN_VALUE};
    private static final String[] JSON_VALUES = {"-1", "0", "18446744073709551615", "18446744073709551616",
        "99999999999999999999999999", "1e400", "-1e-400", "1.5", "-0", "null", "true", "\"\"", "\"x\"",
        "[]", "{}", "\"\\u0000\"", "\"\\ud800\"", "\"../../../etc/passwd\"", "9007199254740993", "0x10",
        "01", "+1", "NaN", "Infinity"};

    private Mutator() {}

    static byte[] mutateBytes(byte[] seed, SplittableRandom r, StringBuilder how) {
      byte[] b = seed.clone();
      int ops = 1 + r.nextInt(4);
      for (int k = 0; k < ops; k++) {
        int op = r.nextInt(9);
        int len = b.length;
        int pos = len == 0 ? 0 : r.nextInt(len);
        switch (op) {
          case 0 -> { if (len > 0) { b[pos] ^= (byte) (1 << r.nextInt(8)); how.append(" flip@").append(pos); } }
          case 1 -> { if (len > 0) { b[pos] = (byte) r.nextInt(256); how.append(" byte@").append(pos); } }
          case 2 -> {
            if (len >= 8) {
              int at = r.nextInt(len - 7);
              long v = INTERESTING[r.nextInt(INTERESTING.length)];
              ByteBuffer buf = ByteBuffer.wrap(b);
              if (r.nextBoolean()) {
                buf.putLong(at, v);
              } else {
                buf.putInt(at, (int) v);
              }
              how.append(" int@").append(at).append('=').append(v);
            }
          }
          case 3 -> { int n = r.nextInt(len + 1); b = Arrays.copyOf(b, n); how.append(" trunc").append(n); }
          case 4 -> {
            int n = 1 + r.nextInt(64);
            byte[] extra = new byte[n];
            for (int j = 0; j < n; j++) {
              extra[j] = (byte) r.nextInt(256);
            }
            b = splice(b, pos, 0, extra);
            how.append(" insert").append(n).append('@').append(pos);
          }
          case 5 -> {
            int n = len == 0 ? 0 : 1 + r.nextInt(Math.min(64, len - pos));
            b = splice(b, pos, n, new byte[0]);
            how.append(" delete").append(n).append('@').append(pos);
          }
          case 6 -> {
            if (len > 0) {
              int from = r.nextInt(len);
              int n = 1 + r.nextInt(Math.min(64, len - from));
              b = splice(b, pos, 0, Arrays.copyOfRange(b, from, from + n));
              how.append(" dup").append(n).append('@').append(pos);
            }
          }
          case 7 -> {
            if (len > 0) {
              int from = r.nextInt(len);
              int n = Math.min(1 + r.nextInt(32), Math.min(len - from, len - pos));
              System.arraycopy(b, from, b, pos, n);
              how.append(" copy").append(n).append('@').append(pos);
            }
          }
          default -> {
            if (len > 0) {
              b[pos] = (byte) new int[] {0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE}[r.nextInt(6)];
              how.append(" magic@").append(pos);
            }
          }
        }
      }
      return b;
    }

    static byte[] mutateJson(byte[] seed, SplittableRandom r, StringBuilder how) {
      String s = new String(seed, UTF_8);
      int ops = 1 + r.nextInt(3);
      for (int k = 0; k < ops; k++) {
        int op = r.nextInt(7);
        switch (op) {
          case 0 -> { // replace a value
            List<int[]> values = valueSpans(s);
            if (!values.isEmpty()) {
              int[] span = values.get(r.nextInt(values.size()));
              String v = JSON_VALUES[r.nextInt(JSON_VALUES.length)];
              s = s.substring(0, span[0]) + v + s.substring(span[1]);
              how.append(" value=").append(v);
            }
          }
          case 1 -> { // drop a member
            List<int[]> members = memberSpans(s);
            if (!members.isEmpty()) {
              int[] span = members.get(r.nextInt(members.size()));
              s = s.substring(0, span[0]) + s.substring(span[1]);
              how.append(" drop-member");
            }
          }
          case 2 -> { // duplicate a member
            List<int[]> members = memberSpans(s);
            if (!members.isEmpty()) {
              int[] span = members.get(r.nextInt(members.size()));
              String m = s.substring(span[0], span[1]);
              s = s.substring(0, span[0]) + m + (m.endsWith(",") ? "" : ",") + s.substring(span[0]);
              how.append(" dup-member");
            }
          }
          case 3 -> { s = s.replaceFirst("\\{", "{\"unknown_field\":1,"); how.append(" unknown"); }
          case 4 -> { // deep nesting inside a value
            int depth = 1 + r.nextInt(20_000);
            int at = s.indexOf(':');
            if (at > 0) {
              s = s.substring(0, at + 1) + "[".repeat(depth) + "]".repeat(depth) + s.substring(at + 1);
              how.append(" nest").append(depth);
            }
          }
          case 5 -> { // long string
            int n = r.nextInt(2) == 0 ? 5_000 : 2_000_000;
            s = s.replaceFirst("\"([^\"]*)\"\\s*}", "\"" + "a".repeat(n) + "\"}");
            how.append(" long").append(n);
          }
          default -> { s = s.substring(0, r.nextInt(s.length() + 1)); how.append(" cut"); }
        }
      }
      return s.getBytes(UTF_8);
    }

    private static List<int[]> valueSpans(String s) {
      List<int[]> spans = new ArrayList<>();
      for (int i = s.indexOf(':'); i >= 0; i = s.indexOf(':', i + 1)) {
        int start = i + 1;
        int end = start;
        if (end < s.length() && s.charAt(end) == '"') {
          end = s.indexOf('"', end + 1) + 1;
          if (end <= 0) {
            continue;
          }
        } else {
          while (end < s.length() && ",}]".indexOf(s.charAt(end)) < 0) {
            end++;
          }
        }
        spans.add(new int[] {start, end});
      }
      return spans;
    }

    private static List<int[]> memberSpans(String s) {
      List<int[]> spans = new ArrayList<>();
      int depth = 0;
      int start = -1;
      boolean inString = false;
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (inString) {
          if (c == '\\') {
            i++;
          } else if (c == '"') {
            inString = false;
          }
          continue;
        }
        switch (c) {
          case '"' -> { inString = true; if (depth == 1 && start < 0) { start = i; } }
          case '{', '[' -> depth++;
          case '}', ']' -> { depth--; if (depth == 0 && start >= 0) { spans.add(new int[] {start, i}); start = -1; } }
          case ',' -> { if (depth == 1 && start >= 0) { spans.add(new int[] {start, i + 1}); start = -1; } }
          default -> { }
        }
      }
      return spans;
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
      byte[] out = new byte[b.length - remove + insert.length];
      System.arraycopy(b, 0, out, 0, at);
      System.arraycopy(insert, 0, out, at, insert.length);
      System.arraycopy(b, at + remove, out, at + insert.length, b.length - at - remove);
      return out;
    }
  }

}
