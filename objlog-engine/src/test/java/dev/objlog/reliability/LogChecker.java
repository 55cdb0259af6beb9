package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.Objlog;
import dev.objlog.ObjlogTestAccess;
import dev.objlog.format.catalog.CatalogCodec;
import dev.objlog.format.catalog.Head;
import dev.objlog.internal.catalog.PartitionCatalog;
import dev.objlog.read.Freshness;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.store.ObjectStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The log invariants every reliability suite checks. Record values are {@code
 * <writer>/<epoch>/<seq>}: the writer incarnation that appended it and the epoch it was fenced
 * with.
 */
final class LogChecker {
  private LogChecker() {}

  static String value(String writer, long epoch, long seq) {
    return writer + "/" + epoch + "/" + seq;
  }

  /** What a full read of one partition found. */
  record Scan(List<ReadRecord> records, long oldestLsn, long nextLsn) {
    List<String> values() {
      return records.stream().map(ReadRecord::valueAsString).toList();
    }
  }

  static Scan scan(Objlog log, int partition) {
    PartitionReader reader = log.newReader(dev.objlog.read.ReaderOptions.defaults()).partition(partition);
    var head = reader.head(Freshness.LATEST);
    List<ReadRecord> out = new ArrayList<>();
    long lsn = head.oldestLsn();
    while (Long.compareUnsigned(lsn, head.nextLsn()) < 0) {
      ReadResult r = reader.read(lsn, 1000, Freshness.CACHED);
      if (r.records().isEmpty()) {
        throw new AssertionError("read at " + lsn + " returned nothing below next " + head.nextLsn());
      }
      out.addAll(r.records());
      lsn = r.nextLsn();
    }
    return new Scan(out, head.oldestLsn(), head.nextLsn());
  }

  /**
   * {@link #check(Scan, Map, long)} for logs that were never asked to retain less: an
   * acknowledged record below the oldest LSN is taken as removed by retention.
   */
  static void check(Scan scan, Map<String, Long> acknowledged) {
    check(scan, acknowledged, -1L);
  }

  /**
   * Dense LSNs from oldest to next; no value twice; every acknowledged value at or above {@code
   * retainFrom} (unsigned; the start of the segment holding the highest {@code before_lsn} ever
   * requested) present exactly once at its acknowledged LSN (when known), and the oldest LSN not
   * above it (retention removed nothing it was not asked to); epochs never decrease along the log
   * and each epoch belongs to one writer (nothing interleaves, one owner per LSN range).
   */
  static void check(Scan scan, Map<String, Long> acknowledged, long retainFrom) {
    assertThat(Long.compareUnsigned(scan.oldestLsn(), retainFrom) <= 0)
        .as("retention trimmed below the requested floor: oldest LSN %s, but records from %s (the start of the"
            + " segment holding the highest before_lsn requested) must be kept",
            Long.toUnsignedString(scan.oldestLsn()), Long.toUnsignedString(retainFrom))
        .isTrue();
    List<ReadRecord> records = scan.records();
    long expected = scan.oldestLsn();
    Set<String> seen = new HashSet<>();
    Map<Long, String> ownerOfEpoch = new HashMap<>();
    long lastEpoch = -1;
    for (ReadRecord r : records) {
      assertThat(r.lsn()).as("dense LSNs").isEqualTo(expected);
      expected++;
      String v = r.valueAsString();
      assertThat(seen.add(v)).as("value %s duplicated in the log (LSN %d)", v, r.lsn()).isTrue();
      String[] parts = v.split("/");
      long epoch = Long.parseLong(parts[1]);
      assertThat(epoch).as("epoch at LSN %d never decreases (no interleaving)", r.lsn()).isGreaterThanOrEqualTo(lastEpoch);
      lastEpoch = epoch;
      String previousOwner = ownerOfEpoch.putIfAbsent(epoch, parts[0]);
      assertThat(previousOwner == null || previousOwner.equals(parts[0]))
          .as("epoch %d published by %s and %s", epoch, previousOwner, parts[0]).isTrue();
    }
    assertThat(expected).as("records end at next_lsn").isEqualTo(scan.nextLsn());
    Map<String, Long> lsnOf = new HashMap<>();
    for (ReadRecord r : records) {
      lsnOf.put(r.valueAsString(), r.lsn());
    }
    List<String> missing = new ArrayList<>();
    for (Map.Entry<String, Long> ack : acknowledged.entrySet()) {
      Long at = lsnOf.get(ack.getKey());
      if (ack.getValue() != null && ack.getValue() >= 0 && ack.getValue() < scan.oldestLsn()
          && Long.compareUnsigned(ack.getValue(), retainFrom) < 0) {
        continue; // removed by retention, as requested
      }
      if (at == null) {
        missing.add(ack.getKey() + (ack.getValue() != null && ack.getValue() >= 0 ? " @" + ack.getValue() : ""));
      } else if (ack.getValue() != null && ack.getValue() >= 0) {
        assertThat(at).as("LSN of acknowledged %s", ack.getKey()).isEqualTo(ack.getValue());
      }
    }
    assertThat(missing).as("acknowledged records missing from the log").isEmpty();
  }

  static void check(Scan scan, Collection<String> acknowledged) {
    Map<String, Long> m = new HashMap<>();
    acknowledged.forEach(v -> m.put(v, -1L));
    check(scan, m);
  }

  /** No record of the given writer incarnations (superseded before any publish) is in the log. */
  static void assertAbsent(Scan scan, Collection<String> writers) {
    for (ReadRecord r : scan.records()) {
      String writer = r.valueAsString().split("/")[0];
      assertThat(writers).as("record %s at LSN %d of a writer superseded before it published", r.valueAsString(),
          r.lsn()).doesNotContain(writer);
    }
  }

  /** Full catalog tree verification (FORMAT.md §2.12) under the current head. */
  static void verifyTree(Objlog log, ObjectStore store, int partition) {
    PartitionCatalog catalog = ObjlogTestAccess.runtime(log).catalog(partition);
    Head head = CatalogCodec.decodeHead(store.get(catalog.headKey()).bytes());
    catalog.verifyTree(head);
  }
}
