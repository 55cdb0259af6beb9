package dev.objlog.spring.actuate;

import static dev.objlog.spring.actuate.ObjlogEndpoint.u64;

import dev.objlog.PartitionHead;
import dev.objlog.SegmentRef;
import dev.objlog.WriterState;
import dev.objlog.spring.core.LocalWriterStatus;
import dev.objlog.spring.core.WriterLeaseStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** How the objlog endpoint shows a partition's head, its segments and its writers (no store reads). */
final class PartitionDescriptions {
  private PartitionDescriptions() {}

  static void headFields(Map<String, Object> details, PartitionHead head) {
    details.put("nextLsn", u64(head.nextLsn()));
    details.put("oldestLsn", u64(head.oldestLsn()));
    details.put("writerEpoch", u64(head.writerEpoch()));
    details.put("generation", u64(head.generation()));
    details.put("segmentCount", u64(head.segmentCount()));
    details.put("reachableSegmentCount", u64(head.reachableSegmentCount()));
    SegmentRef last = head.lastSegment();
    details.put("newestRecordTimestamp", last == null ? null : Instant.ofEpochMilli(last.maxTimestampMs()));
  }

  /** The template's writer leases of a stream as its last lease round saw them (no store read). */
  static Map<String, Object> writerLease(WriterLeaseStatus status) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("instanceId", status.owner());
    details.put("memberSlot", status.memberSlot());
    details.put("members", status.members());
    details.put("leases", status.leases().stream()
        .map(l -> leaseView(l.partition(), l.owner(), l.epoch(), l.until())).toList());
    details.put("othersLeases", status.othersLeases().stream()
        .map(l -> leaseView(l.partition(), l.owner(), l.epoch(), l.until())).toList());
    return details;
  }

  private static Map<String, Object> leaseView(int partition, String owner, long epoch, Instant until) {
    Map<String, Object> l = new LinkedHashMap<>();
    l.put("partition", partition);
    l.put("owner", owner);
    l.put("epoch", u64(epoch));
    l.put("until", until);
    return l;
  }

  static Map<String, Object> localWriter(LocalWriterStatus status) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("state", status.state().name());
    WriterState writer = status.writer();
    if (writer != null) {
      details.put("writerEpoch", u64(writer.committed().writerEpoch()));
      details.put("committedNextLsn", u64(writer.committed().nextLsn()));
      details.put("nextLsn", u64(writer.nextLsn()));
      details.put("bufferedRecords", writer.bufferedRecords());
      details.put("inflightSegments", writer.inflightSegments());
      details.put("inflightBytes", writer.inflightBytes());
    }
    if (status.state() != LocalWriterStatus.State.NOT_WRITTEN_HERE) {
      details.put("lastCommit", status.lastCommit());
      details.put("pendingSends", status.pendingSends());
      details.put("opens", status.opens());
    }
    if (status.failure() != null) {
      details.put("failure", status.failure());
    }
    return details;
  }

  static Map<String, Object> segment(SegmentRef ref) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("key", ref.uri());
    details.put("baseLsn", u64(ref.baseLsn()));
    details.put("lastLsn", u64(ref.lastLsn()));
    details.put("recordCount", ref.recordCount());
    details.put("sizeBytes", u64(ref.sizeBytes()));
    details.put("writerEpoch", u64(ref.writerEpoch()));
    details.put("minTimestamp", Instant.ofEpochMilli(ref.minTimestampMs()));
    details.put("maxTimestamp", Instant.ofEpochMilli(ref.maxTimestampMs()));
    return details;
  }
}
