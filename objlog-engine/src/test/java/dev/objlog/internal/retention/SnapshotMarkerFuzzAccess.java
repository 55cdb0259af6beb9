package dev.objlog.internal.retention;

import dev.objlog.SnapshotMarker;
import dev.objlog.format.key.PartitionKeys;

/** Test-only access to the snapshot marker codec, for the reliability fuzz suite. */
public final class SnapshotMarkerFuzzAccess {
  private SnapshotMarkerFuzzAccess() {}

  public static byte[] encode(SnapshotMarker marker) {
    return SnapshotMarkers.encode(marker);
  }

  public static SnapshotMarker decode(byte[] bytes, PartitionKeys keys) {
    return SnapshotMarkers.decode(bytes, keys);
  }
}
