package dev.objlog.lifecycle;

/** Test-only access to the reclaimer's state codec, for the reliability fuzz suite. */
public final class GcStateFuzzAccess {
  private GcStateFuzzAccess() {}

  /** A well-formed state object with every field set, as a mutation seed. */
  public static byte[] sample(String streamId, int partition) {
    GcState s = GcState.fresh(streamId, partition);
    s.ownerId = "0123456789abcdef0123456789abcdef";
    s.leaseUntilUnixMs = 1_700_000_060_000L;
    s.retentionVersion = 3;
    s.safeFloorLsn = 40;
    s.pendingFloorLsn = 50;
    s.pendingSinceUnixMs = 1_700_000_000_000L;
    s.hasPendingFloor = true;
    s.segmentReclaimedThroughLsn = 30;
    s.segmentAfterKey = "objlog/seg-00000000000000000020-x";
    s.pageReclaimedThroughLsn = 20;
    s.pageLevel = 1;
    s.pageAfterKey = "catalog/pages/l01/index-l01-00000000000000000010-y";
    s.maxPageLevel = 2;
    s.stagingAfterKey = "staging/a";
    s.stagingEpoch = 2;
    s.orphanSegmentAfterKey = "objlog/seg-z";
    s.orphanPageLevel = 1;
    s.orphanPageAfterKey = "catalog/pages/l01/q";
    s.pageQuarantine.add(new GcState.Quarantined("catalog/pages/l00/leaf-1", 416, 7, 1_699_999_000_000L));
    s.updatedUnixMs = 1_700_000_000_000L;
    return s.encode();
  }

  /** Decodes and validates, throwing what the reclaimer would. */
  public static void decode(byte[] bytes, String streamId, int partition) {
    GcState.decode(bytes, streamId, partition);
  }
}
