package dev.objlog.spring.coordination;

import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseId;
import dev.objlog.coordination.LeaseResult;
import dev.objlog.coordination.LeaseStore;
import dev.objlog.coordination.PartitionSharing;
import dev.objlog.store.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A consumer-group member or writer of the previous release, as far as the bucket and the
 * database see it: its leases under the keys that release used, spelled out here rather than taken
 * from the code under test (a consumer group: {@code <group>} for partitions, {@code
 * <group>#members} for member slot {@code i}, keyed like partition {@code i}; writers: {@code
 * maintenance/writer-lease.json} in the bucket and the group {@code objlog-writer} in rows for
 * partitions, {@code objlog-writer-members} for member slots), and its algorithm: renew, count the live
 * slots, aim at {@code ceil(P / M)}, shed the highest partitions above it (released once their
 * work ended), take free ones lowest first. Test-only: it plays the old instances of a rolling
 * deploy.
 */
final class PreviousReleaseMember {
  private final LeaseStore leases;
  private final @Nullable String group;
  private final boolean rows;
  private final String stream;
  private final String owner;
  private final int partitions;
  private final Duration ttl;
  private final Duration margin;
  private final Ticker ticker;
  private final PartitionSharing.Partitions target;
  private final Map<Integer, Lease> held = new TreeMap<>();
  private final Map<Integer, Lease> handingOver = new TreeMap<>();
  private @Nullable Lease slot;
  private int slotIndex = -1;
  private int members = 1;

  /**
   * A member of consumer group {@code group}, or a writer when it is null, over a store that keeps
   * leases in rows ({@code rows}) or in the bucket.
   */
  PreviousReleaseMember(LeaseStore leases, @Nullable String group, boolean rows, String stream, String owner, int partitions, Duration ttl,
      Duration margin, Ticker ticker, PartitionSharing.Partitions target) {
    this.leases = leases;
    this.group = group;
    this.rows = rows;
    this.stream = stream;
    this.owner = owner;
    this.partitions = partitions;
    this.ttl = ttl;
    this.margin = margin;
    this.ticker = ticker;
    this.target = target;
  }

  /**
   * The previous release's partition lease, as this release's lease at the same row or document:
   * {@code LeaseKey.of(group, stream, p)}; for writers {@code maintenance/writer-lease.json} or
   * {@code LeaseKey.of("objlog-writer", stream, p)}.
   */
  private LeaseId partitionKey(int partition) {
    if (group != null) {
      return LeaseId.ofGroup(group, LeaseId.Role.PARTITION, stream, partition);
    }
    return rows
        ? LeaseId.ofGroup("objlog-writer", LeaseId.Role.PARTITION, stream, partition)
        : LeaseId.ofWriters(LeaseId.Role.PARTITION, stream, partition);
  }

  /**
   * The previous release's member slot: {@code LeaseKey.of(group + "#members", stream, i)}, for
   * writers {@code LeaseKey.of("objlog-writer-members", stream, i)}.
   */
  private LeaseId slotKey(int index) {
    String slots = group == null ? "objlog-writer-members" : group + "#members";
    return LeaseId.ofGroup(slots, LeaseId.Role.PARTITION, stream, index);
  }

  void tick() {
    renewPartitions();
    countMembers();
    int cap = (partitions + members - 1) / members;
    List<Integer> mine = new ArrayList<>(held.keySet());
    for (int i = mine.size() - 1; i >= 0 && held.size() > cap; i--) {
      int partition = mine.get(i);
      handingOver.put(partition, held.remove(partition));
      target.requestStop(partition, true);
    }
    finishHandOvers();
    for (int partition = 0; partition < partitions; partition++) {
      if (held.containsKey(partition) || handingOver.containsKey(partition) || target.running(partition)) {
        continue;
      }
      Optional<Lease> current = leases.current(partitionKey(partition));
      if ((current.isPresent() && !current.get().owner().equals(owner)) || held.size() >= cap) {
        continue;
      }
      long sentAt = ticker.read();
      LeaseResult result = leases.tryAcquire(partitionKey(partition), owner, ttl);
      if (result instanceof LeaseResult.Granted g) {
        held.put(partition, g.lease());
        target.start(partition, sentAt + ttl.toNanos() - margin.toNanos());
      }
    }
  }

  private void renewPartitions() {
    for (Map.Entry<Integer, Lease> e : List.copyOf(held.entrySet())) {
      if (target.gaveUp(e.getKey())) {
        handingOver.put(e.getKey(), held.remove(e.getKey()));
        target.requestStop(e.getKey(), false);
        continue;
      }
      renew(e.getKey(), e.getValue(), held);
    }
    finishHandOvers();
    for (Map.Entry<Integer, Lease> e : List.copyOf(handingOver.entrySet())) {
      renew(e.getKey(), e.getValue(), handingOver);
    }
  }

  private void renew(int partition, Lease lease, Map<Integer, Lease> in) {
    long sentAt = ticker.read();
    try {
      LeaseResult r = leases.renew(partitionKey(partition), lease, ttl);
      if (r instanceof LeaseResult.Granted g) {
        in.put(partition, g.lease());
        target.extend(partition, sentAt + ttl.toNanos() - margin.toNanos());
      } else {
        in.remove(partition);
        target.revoke(partition);
      }
    } catch (RuntimeException e) {
      // The work stops by itself at its deadline.
    }
  }

  private void finishHandOvers() {
    for (int partition : List.copyOf(handingOver.keySet())) {
      if (!target.running(partition)) {
        release(partitionKey(partition), handingOver.remove(partition));
      }
    }
  }

  private void countMembers() {
    Lease s = slot;
    if (s != null) {
      try {
        slot = leases.renew(slotKey(slotIndex), s, ttl).grantedLease().orElse(null);
      } catch (RuntimeException e) {
        // kept: the previous release kept its slot on a failed renewal
      }
    }
    int live = 0;
    for (int i = 0; i < partitions; i++) {
      if (slot != null && i == slotIndex) {
        live++;
        continue;
      }
      Optional<Lease> current = leases.current(slotKey(i));
      if (current.isPresent() && !current.get().owner().equals(owner)) {
        live++;
      } else if (slot == null) {
        Optional<Lease> mine = leases.tryAcquire(slotKey(i), owner, ttl).grantedLease();
        if (mine.isPresent()) {
          slot = mine.get();
          slotIndex = i;
        }
        live++;
      }
    }
    members = Math.max(1, slot == null ? live + 1 : live);
  }

  void releaseAll() {
    for (Map<Integer, Lease> in : List.of(held, handingOver)) {
      for (int partition : List.copyOf(in.keySet())) {
        if (!target.running(partition)) {
          release(partitionKey(partition), in.get(partition));
        }
        in.remove(partition);
      }
    }
    if (slot != null) {
      release(slotKey(slotIndex), slot);
      slot = null;
    }
  }

  private void release(LeaseId id, @Nullable Lease lease) {
    if (lease == null) {
      return;
    }
    try {
      leases.release(id, lease);
    } catch (RuntimeException e) {
      // expires on its own
    }
  }
}
