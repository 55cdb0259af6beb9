package dev.objlog.replica;

import dev.objlog.SnapshotMarker;
import dev.objlog.read.ReadRecord;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A replica's state for the tests: records {@code key=value} set keys, per partition. Idempotent
 * by LSN (a record below what a partition applied through is skipped), snapshots as text, and a
 * digest of the state alone. Every applied batch is recorded, so tests see redeliveries.
 *
 * <p>Thread-safety: synchronised.
 */
final class KeyValueState implements ReplicaApplier {
  private final Map<Integer, TreeMap<String, String>> values = new TreeMap<>();
  private final Map<Integer, Long> appliedThrough = new TreeMap<>();
  private final List<ReplicaBatch> batches = new ArrayList<>();
  private final List<SnapshotMarker> restored = new ArrayList<>();

  @Override
  public synchronized void apply(ReplicaBatch batch) {
    batches.add(batch);
    long through = appliedThrough.getOrDefault(batch.partition(), 0L);
    TreeMap<String, String> map = values.computeIfAbsent(batch.partition(), p -> new TreeMap<>());
    for (ReadRecord r : batch.records()) {
      if (r.lsn() < through) {
        continue; // applied before: the idempotency key (stream, partition, LSN) says so
      }
      String[] kv = r.valueAsString().split("=", 2);
      map.put(kv[0], kv[1]);
    }
    appliedThrough.put(batch.partition(), Math.max(through, batch.nextLsn()));
    notifyAll();
  }

  @Override
  public synchronized void restore(SnapshotMarker marker, byte[] payload) {
    restored.add(marker);
    TreeMap<String, String> map = new TreeMap<>();
    String[] lines = new String(payload, StandardCharsets.UTF_8).split("\n");
    long next = Long.parseLong(lines[0]);
    for (int i = 1; i < lines.length; i++) {
      String[] kv = lines[i].split("=", 2);
      map.put(kv[0], kv[1]);
    }
    values.put(marker.partition(), map);
    appliedThrough.put(marker.partition(), next);
    notifyAll();
  }

  /** The partition's state as a snapshot payload: the next LSN, then one line per key. */
  synchronized byte[] snapshot(int partition) {
    StringBuilder out = new StringBuilder().append(appliedThrough.getOrDefault(partition, 0L));
    values.getOrDefault(partition, new TreeMap<>()).forEach((k, v) -> out.append('\n').append(k).append('=').append(v));
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The LSN the partition applied through (the next it needs). */
  synchronized long appliedThrough(int partition) {
    return appliedThrough.getOrDefault(partition, 0L);
  }

  /** Waits until the partition applied everything before {@code nextLsn}; false after a minute. */
  synchronized boolean awaitThrough(int partition, long nextLsn) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (appliedThrough(partition) < nextLsn) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  synchronized List<ReplicaBatch> batches() {
    return List.copyOf(batches);
  }

  synchronized List<SnapshotMarker> restored() {
    return List.copyOf(restored);
  }

  /** SHA-256 of every partition's keys and values: equal states, equal digests. */
  synchronized String digest() {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      values.forEach((p, map) -> map.forEach((k, v) -> sha.update(
          (p + "\u0000" + k + "\u0000" + v + "\n").getBytes(StandardCharsets.UTF_8))));
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  synchronized Map<String, String> values(int partition) {
    return Map.copyOf(values.getOrDefault(partition, new TreeMap<>()));
  }
}
