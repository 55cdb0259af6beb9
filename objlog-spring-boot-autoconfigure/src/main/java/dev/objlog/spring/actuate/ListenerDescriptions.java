package dev.objlog.spring.actuate;

import static dev.objlog.spring.actuate.ObjlogEndpoint.u64;

import dev.objlog.spring.listener.ObjlogListenerContainer;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How the objlog endpoint shows listeners: from the containers' cached state, no store reads. */
final class ListenerDescriptions {
  private ListenerDescriptions() {}

  static Map<String, Object> describe(ObjlogListenerEndpointRegistry registry) {
    Map<String, Object> all = new LinkedHashMap<>();
    for (ObjlogListenerContainer container : registry.getListenerContainers()) {
      all.put(container.getListenerId(), describe(container));
    }
    return all;
  }

  static Map<String, Object> describe(ObjlogListenerContainer container) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("stream", container.getStreamName());
    details.put("checkpointOwner", container.getCheckpointOwner());
    details.put("partitions", container.getAssignedPartitions().toString());
    details.put("checkpointMode", container.getCheckpointMode().name());
    details.put("state", container.getState());
    details.put("expectedRunning", container.isExpectedRunning());
    details.put("inExpectedState", container.isInExpectedState());
    List<Map<String, Object>> partitions = new ArrayList<>();
    for (ObjlogListenerContainer.PartitionStatus status : container.getPartitionStatuses()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("partition", status.partition());
      p.put("state", status.state().name());
      p.put("position", u64(status.position()));
      p.put("checkpoint", status.checkpointed() < 0 ? null : u64(status.checkpointed()));
      p.put("lastCheckpoint", status.lastCheckpoint());
      p.put("headNextLsn", u64(status.headNextLsn()));
      p.put("lagRecords", u64(status.lagRecords()));
      if (status.failure() != null) {
        p.put("failure", status.failure());
      }
      partitions.add(p);
    }
    details.put("partitionStatus", partitions);
    if (container.getGroup() != null) {
      Map<String, Object> group = new LinkedHashMap<>();
      group.put("group", container.getGroup());
      group.put("instanceId", container.getInstanceId());
      group.put("members", container.getGroupMembers());
      List<Map<String, Object>> leases = new ArrayList<>();
      for (ObjlogListenerContainer.PartitionLease lease : container.getPartitionLeases()) {
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("partition", lease.partition());
        l.put("owner", lease.owner());
        l.put("until", lease.until());
        l.put("heldByThisInstance", lease.heldByThisInstance());
        leases.add(l);
      }
      group.put("leases", leases);
      details.put("group", group);
    }
    return details;
  }
}
