package dev.objlog.spring.actuate;

import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.PartitionVerification;
import dev.objlog.RetentionRegressionException;
import dev.objlog.RetentionRequest;
import dev.objlog.RetentionResult;
import dev.objlog.SegmentPage;
import dev.objlog.SegmentRef;
import dev.objlog.VerifyOptions;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.lifecycle.LeaseHeldException;
import dev.objlog.lifecycle.ReclaimResult;
import dev.objlog.read.Freshness;
import dev.objlog.spring.core.ObjlogStream;
import dev.objlog.spring.core.ObjlogStreams;
import dev.objlog.spring.core.ObjlogTemplate;
import dev.objlog.spring.core.StoreActivity;
import dev.objlog.spring.listener.ObjlogListenerEndpointRegistry;
import dev.objlog.spring.lifecycle.ObjlogLifecycleScheduler;
import dev.objlog.spring.lifecycle.ObjlogMaintenance;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code objlog} actuator endpoint: read operations, and write operations that need raised access.
 *
 * <ul>
 *   <li>{@code GET /actuator/objlog}: the store, and every configured stream by name with its
 *       stream id and partitions: each partition's head (next and oldest LSN, writer epoch,
 *       generation, segment counts, newest record timestamp) and this instance's writer of it;
 *       with writer leases also the stream's {@code writerLease}: this instance's owner id,
 *       membership slot, the member count, the partition leases it holds (owner, epoch,
 *       expiry) and, as {@code othersLeases}, those other instances held when its rounds last
 *       read them, all as the template's last lease round saw them.
 *   <li>{@code GET /actuator/objlog/{streamName}/{partition}}: the same for one partition, plus
 *       the retention fields, the newest committed segment and a listing of the partition's
 *       segment folder (count, bytes, newest objects).
 *   <li>{@code GET /actuator/objlog/{streamName}/{partition}/segments?fromLsn=N&limit=M}: one page
 *       of the partition's reachable segments in LSN order with the pending retention request (the
 *       console's segment strip).
 * </ul>
 *
 * <p>The overview also carries the server's {@code time}, recent store outcomes ({@code
 * storeActivity}), the memory budget ({@code memory}, a {@link MemoryView}) and, when known,
 * whether write operations are mapped ({@code writeOperations}). {@code ?heads=cached} serves
 * heads from a {@link CachedPartitionHeads}, as the console does: one read per partition per refresh.
 *
 * <p>Each request refreshes the heads it shows (one conditional GET per partition, no body when
 * unchanged). The folder listing of the detail view lists at most {@value #MAX_LISTED} keys.
 *
 * <p>Write operations, available only when the endpoint's access is raised ({@code
 * management.endpoint.objlog.access=unrestricted}; the default is read-only):
 *
 * <ul>
 *   <li>{@code POST /actuator/objlog/{streamName}/{partition}/retention} with {@code {"beforeLsn":
 *       N}}: requests retention below N (policy version = the previous one plus one) and, when this
 *       instance's writer of the partition is open, applies it at once.
 *   <li>{@code POST /actuator/objlog/{streamName}/{partition}/reclaim} (or {@code .../scrub}): runs
 *       one reclaim (scrub) pass now, with {@code objlog.lifecycle.*}'s delete delay and budgets,
 *       and returns its result.
 *   <li>{@code POST /actuator/objlog/{streamName}/{partition}/verify} (optionally with {@code
 *       {"segmentHashes": true}}): verifies the partition's head, catalog pages and segments
 *       ({@link Objlog#verifyPartition}, read-only, at {@link VerifyOptions#DEFAULT_REQUESTS_PER_SECOND}
 *       requests per second) and returns the typed result; it takes as long as the tree is big.
 * </ul>
 *
 * <p>Thread-safety: safe for concurrent use.
 */
@Endpoint(id = "objlog", defaultAccess = Access.READ_ONLY)
public class ObjlogEndpoint {
  /** The write operation's action that requests (and, when written here, applies) retention. */
  public static final String RETENTION = "retention";

  /** The write operation's action that runs one reclaim pass. */
  public static final String RECLAIM = "reclaim";

  /** The write operation's action that runs one scrub pass. */
  public static final String SCRUB = "scrub";

  /** The write operation's action that verifies the partition's tree ({@link Objlog#verifyPartition}). */
  public static final String VERIFY = "verify";

  /** Most segments one page of {@code .../{partition}/segments} lists. */
  public static final int MAX_SEGMENT_PAGE = 1024;

  /** Most segment-folder keys one detail request lists. */
  public static final int MAX_LISTED = 10_000;

  private static final int NEWEST = 5;

  private final ObjlogStreams streams;
  private final @Nullable ObjlogTemplate template;
  private final StoreActivity activity;
  private volatile @Nullable ObjlogListenerEndpointRegistry listeners;
  private final @Nullable ObjlogMaintenance maintenance;
  private volatile @Nullable ObjlogLifecycleScheduler lifecycle;
  private volatile @Nullable CachedPartitionHeads cachedHeads;
  private volatile @Nullable Boolean writeOperations;

  /**
   * An endpoint without write operations' backing: they answer 400.
   *
   * @param streams the configured streams
   * @param template the template whose writers are reported, or null
   * @param activity records the outcome of the head reads
   */
  public ObjlogEndpoint(ObjlogStreams streams, @Nullable ObjlogTemplate template, StoreActivity activity) {
    this(streams, template, activity, null);
  }

  /**
   * @param streams the configured streams
   * @param template the template whose writers are reported, or null
   * @param activity records the outcome of the head reads
   * @param maintenance runs the write operations, or null for none
   */
  public ObjlogEndpoint(ObjlogStreams streams, @Nullable ObjlogTemplate template, StoreActivity activity,
      @Nullable ObjlogMaintenance maintenance) {
    this.streams = Objects.requireNonNull(streams, "streams");
    this.template = template;
    this.activity = Objects.requireNonNull(activity, "activity");
    this.maintenance = maintenance;
  }

  /**
   * Requests retention ({@value #RETENTION}, with {@code beforeLsn}) or runs a reclaim ({@value
   * #RECLAIM}) or scrub ({@value #SCRUB}) pass of one partition now.
   *
   * @return what was done
   * @throws InvalidEndpointRequestException (400) for an unknown stream, partition or action, a
   *     missing or negative {@code beforeLsn}, a request below the pending one, or a reclaim lease
   *     held elsewhere
   */
  public Map<String, Object> maintain(String streamName, int partition, String action, @Nullable Long beforeLsn) {
    return maintain(streamName, partition, action, beforeLsn, null);
  }

  /**
   * {@link #maintain(String, int, String, Long)}, or verifies the partition ({@value #VERIFY},
   * reading every segment in full when {@code segmentHashes} is true).
   */
  @WriteOperation
  public Map<String, Object> maintain(@Selector String streamName, @Selector int partition,
      @Selector String action, @Nullable Long beforeLsn, @Nullable Boolean segmentHashes) {
    ObjlogStream stream = streams.find(streamName).orElse(null);
    if (stream == null || partition < 0 || partition >= stream.partitions()) {
      throw new InvalidEndpointRequestException("no partition " + partition + " of a stream named '" + streamName
          + "'", "unknown stream or partition");
    }
    if (action.equals(VERIFY)) {
      PartitionVerification v = streams.log(stream.name()).verifyPartition(partition,
          VerifyOptions.defaults().withSegmentHashes(Boolean.TRUE.equals(segmentHashes)));
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("stream", stream.name());
      body.put("partition", partition);
      body.put("action", action);
      body.put("result", verification(v));
      return body;
    }
    ObjlogMaintenance ops = maintenance;
    if (ops == null) {
      throw new InvalidEndpointRequestException("objlog maintenance is not available in this application",
          "no ObjlogMaintenance bean");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("stream", stream.name());
    body.put("partition", partition);
    body.put("action", action);
    try {
      switch (action) {
        case RETENTION -> {
          if (beforeLsn == null || beforeLsn < 0) {
            throw new InvalidEndpointRequestException("retention needs a non-negative beforeLsn in the body, was "
                + beforeLsn, "beforeLsn missing or negative");
          }
          RetentionRequest request = ops.requestRetention(stream.name(), partition, beforeLsn);
          Map<String, Object> requested = new LinkedHashMap<>();
          requested.put("policyVersion", u64(request.policyVersion()));
          requested.put("beforeLsn", u64(request.beforeLsn()));
          requested.put("requestedBeforeLsn", u64(request.requestedBeforeLsn()));
          requested.put("outcome", request.outcome().name());
          body.put("request", requested);
          Optional<RetentionResult> applied = ops.applyRetention(stream.name(), partition);
          if (applied.isPresent()) {
            RetentionResult r = applied.get();
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("applied", r.applied());
            result.put("policyVersion", u64(r.policyVersion()));
            result.put("requestedLsn", u64(r.requestedLsn()));
            result.put("oldestLsn", u64(r.oldestLsn()));
            body.put("applied", result);
          } else {
            body.put("applied", null); // no open writer here: the partition's writer applies it
          }
        }
        case RECLAIM, SCRUB -> {
          ReclaimResult r = action.equals(RECLAIM) ? ops.reclaim(stream.name(), partition)
              : ops.scrub(stream.name(), partition);
          body.put("result", reclaimResult(r));
        }
        default -> throw new InvalidEndpointRequestException("unknown action '" + action + "'; use " + RETENTION
            + ", " + RECLAIM + ", " + SCRUB + " or " + VERIFY, "unknown action");
      }
    } catch (RetentionRegressionException | LeaseHeldException e) {
      throw new InvalidEndpointRequestException(e.getMessage(), e.getClass().getSimpleName());
    }
    return body;
  }

  /** A verification result as the endpoint shows it. */
  public static Map<String, Object> verification(PartitionVerification v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("outcome", v.outcome().name());
    m.put("headGeneration", u64(v.headGeneration()));
    m.put("oldestLsn", u64(v.oldestLsn()));
    m.put("nextLsn", u64(v.nextLsn()));
    m.put("leafPages", v.leafPages());
    m.put("indexPages", v.indexPages());
    m.put("segments", v.segments());
    m.put("segmentsChecked", v.segmentsChecked());
    m.put("segmentHashesChecked", v.segmentHashesChecked());
    m.put("requests", v.requests());
    m.put("problemCount", v.problemCount());
    m.put("problems", v.problems().stream()
        .map(p -> Map.of("kind", p.kind().name(), "key", p.key(), "detail", p.detail()))
        .toList());
    return m;
  }

  /** A reclaim or scrub result as the endpoint shows it. */
  public static Map<String, Object> reclaimResult(ReclaimResult r) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("operation", r.operation().name());
    details.put("partition", r.partition());
    details.put("safeFloorLsn", u64(r.safeFloorLsn()));
    details.put("reclaimedThroughLsn", u64(r.reclaimedThroughLsn()));
    details.put("scannedObjects", r.scannedObjects());
    details.put("candidateObjects", r.candidateObjects());
    details.put("deletedObjects", r.deletedObjects());
    details.put("deletedBytes", r.deletedBytes());
    details.put("invalidObjects", r.invalidObjects());
    details.put("quarantinedObjects", r.quarantinedObjects());
    details.put("pendingQuarantine", r.pendingQuarantine());
    details.put("hasMore", r.hasMore());
    details.put("dryRun", r.dryRun());
    return details;
  }

  /** Adds the listeners of {@code registry} to the output and enables their write operation. */
  public void setListenerRegistry(@Nullable ObjlogListenerEndpointRegistry registry) {
    this.listeners = registry;
  }

  /**
   * {@code POST /actuator/objlog/listeners/{listenerId}} with {@code {"action": "pause"}} (or
   * resume, start, stop): changes a listener's state and returns its description. Needs raised
   * access ({@code management.endpoint.objlog.access=unrestricted}).
   */
  @WriteOperation
  public @Nullable Map<String, Object> listener(@Selector String kind, @Selector String listenerId, String action) {
    ObjlogListenerEndpointRegistry registry = listeners;
    if (registry == null || !kind.equals("listeners") || registry.getListenerContainer(listenerId) == null) {
      return null;
    }
    switch (action.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "pause" -> registry.pause(listenerId);
      case "resume" -> registry.resume(listenerId);
      case "start" -> registry.start(listenerId);
      case "stop" -> registry.stop(listenerId);
      default -> throw new IllegalArgumentException("action must be pause, resume, start or stop, was " + action);
    }
    return ListenerDescriptions.describe(java.util.Objects.requireNonNull(registry.getListenerContainer(listenerId)));
  }

  /**
   * Serves {@code GET /actuator/objlog?heads=cached} (the console's view) from {@code heads}:
   * partition heads read at most once per its refresh interval, with each partition's reachable
   * bytes. Without it, {@code heads=cached} reads heads as a plain request does.
   */
  public void setCachedHeads(@Nullable CachedPartitionHeads heads) {
    this.cachedHeads = heads;
  }

  /**
   * Shows, for each partition of a stream with until-consumed retention, {@code retentionHeldBy}:
   * the consumer that holds retention back as the schedule's last run found it ({@code consumer},
   * {@code beforeLsn}, {@code heldForSeconds}, {@code heldBytes}), or null when nothing does.
   */
  public void setLifecycleScheduler(@Nullable ObjlogLifecycleScheduler scheduler) {
    this.lifecycle = scheduler;
  }

  private void retentionHeldBy(Map<String, Object> details, ObjlogStream stream, int partition) {
    RetentionHeldBy.put(details, lifecycle, stream.name(), partition);
  }

  /**
   * Whether this endpoint's write operations are mapped (its access is unrestricted); shown as
   * {@code writeOperations} so that a page offers only the actions it can take. Unset: not shown.
   */
  public void setWriteOperations(boolean available) {
    this.writeOperations = available;
  }

  /** Every stream's partitions and the listeners, each head read now. */
  public Map<String, Object> streams() {
    return streams(null);
  }

  /**
   * Every stream's partitions and the listeners. {@code heads=cached} serves the heads from the
   * {@linkplain #setCachedHeads cache} (and adds {@code reachableBytes} and {@code headReadAt}
   * to each partition); otherwise each request reads every head.
   */
  @ReadOperation
  public Map<String, Object> streams(@Nullable String heads) {
    CachedPartitionHeads cache = "cached".equals(heads) ? cachedHeads : null;
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("time", Instant.now());
    body.put("store", streams.store().describe());
    StoreActivity.Snapshot outcomes = activity.snapshot();
    Map<String, Object> storeActivity = new LinkedHashMap<>();
    storeActivity.put("lastSuccess", outcomes.lastSuccess());
    storeActivity.put("lastFailure", outcomes.lastFailure());
    storeActivity.put("failingSince", outcomes.failingSince());
    storeActivity.put("lastError", outcomes.lastError());
    body.put("storeActivity", storeActivity);
    body.put("memory", MemoryView.of(streams.options().memoryBudget()));
    Boolean writes = writeOperations;
    if (writes != null) {
      body.put("writeOperations", writes);
    }
    if (cache != null) {
      body.put("headsRefresh", cache.refresh().toString());
    }
    Map<String, Object> all = new LinkedHashMap<>();
    for (ObjlogStream stream : streams.streams()) {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("streamId", stream.streamId());
      details.put("partitionCount", stream.partitions());
      if (template != null) {
        details.put("writerPartitions", template.writablePartitions(stream.name()).toString());
        template.writerLeaseStatus(stream.name())
            .ifPresent(status -> details.put("writerLease", PartitionDescriptions.writerLease(status)));
      }
      List<Map<String, Object>> partitions = new ArrayList<>();
      if (cache == null) {
        for (int p = 0; p < stream.partitions(); p++) {
          partitions.add(partition(stream, p, false));
        }
      } else {
        List<CachedPartitionHeads.View> views = cache.views(stream.name(), stream.partitions());
        for (int p = 0; p < views.size(); p++) {
          partitions.add(cachedPartition(stream, p, views.get(p)));
        }
      }
      details.put("partitions", partitions);
      all.put(stream.name(), details);
    }
    body.put("streams", all);
    ObjlogListenerEndpointRegistry registry = listeners;
    if (registry != null) {
      body.put("listeners", ListenerDescriptions.describe(registry));
    }
    return body;
  }

  @ReadOperation
  public @Nullable Map<String, Object> partition(@Selector String streamName, @Selector int partition) {
    ObjlogStream stream = streams.find(streamName).orElse(null);
    if (stream == null || partition < 0 || partition >= stream.partitions()) {
      return null;
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("stream", stream.name());
    body.put("streamId", stream.streamId());
    body.putAll(partition(stream, partition, true));
    return body;
  }

  private Map<String, Object> partition(ObjlogStream stream, int partition, boolean detailed) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("partition", partition);
    try {
      PartitionHead head = streams.reader(stream.name()).partition(partition).head(Freshness.LATEST);
      activity.success();
      PartitionDescriptions.headFields(details, head);
      SegmentRef last = head.lastSegment();
      if (detailed) {
        details.put("appliedRetentionLsn", u64(head.appliedRetentionLsn()));
        details.put("appliedRetentionVersion", u64(head.appliedRetentionVersion()));
        details.put("newestSegment", last == null ? null : PartitionDescriptions.segment(last));
        details.put("segmentObjects", segmentObjects(stream, partition));
      }
    } catch (RuntimeException e) {
      activity.failure(e);
      details.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    retentionHeldBy(details, stream, partition);
    if (template != null) {
      details.put("localWriter", PartitionDescriptions.localWriter(template.writerStatus(stream.name(), partition)));
    }
    return details;
  }

  /** One partition of the cached view: the same fields, from a head at most one refresh old. */
  private Map<String, Object> cachedPartition(ObjlogStream stream, int partition, CachedPartitionHeads.View view) {
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("partition", partition);
    PartitionHead head = view.head();
    if (head != null) {
      PartitionDescriptions.headFields(details, head);
      details.put("reachableBytes", view.reachableBytes());
    } else if (view.error() == null) {
      details.put("created", false); // no head yet: the first writer creates the partition
    }
    details.put("headReadAt", view.readAt());
    if (view.error() != null) {
      details.put("error", view.error());
    }
    retentionHeldBy(details, stream, partition);
    if (template != null) {
      details.put("localWriter", PartitionDescriptions.localWriter(template.writerStatus(stream.name(), partition)));
    }
    return details;
  }

  /**
   * {@code GET /actuator/objlog/{streamName}/{partition}/segments?fromLsn=N&limit=M}: one page of
   * the partition's reachable segments in LSN order (at most {@value #MAX_SEGMENT_PAGE}, default
   * 100), the head they were listed from and the pending retention request. Costs a head read, one
   * read of the retention mailbox, and a GET per catalog page on the way that is not cached.
   *
   * @return null (404) for an unknown stream, partition or view
   */
  @ReadOperation
  public @Nullable Map<String, Object> segments(@Selector String streamName, @Selector int partition,
      @Selector String view, @Nullable Long fromLsn, @Nullable Integer limit) {
    ObjlogStream stream = streams.find(streamName).orElse(null);
    if (stream == null || partition < 0 || partition >= stream.partitions() || !view.equals("segments")) {
      return null;
    }
    int pageSize = limit == null ? 100 : limit;
    if (pageSize < 1 || pageSize > MAX_SEGMENT_PAGE) {
      throw new InvalidEndpointRequestException("limit must be between 1 and " + MAX_SEGMENT_PAGE + ", was "
          + pageSize, "limit out of range");
    }
    long from = fromLsn == null ? 0 : fromLsn;
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("stream", stream.name());
    body.put("partition", partition);
    try {
      Objlog log = streams.log(stream.name());
      Optional<SegmentPage> page = log.segments(partition, from, pageSize);
      Optional<RetentionRequest> pending = log.retentionRequest(partition);
      activity.success();
      if (page.isEmpty()) {
        body.put("created", false);
        body.put("segments", List.of());
        return body;
      }
      PartitionHead head = page.get().head();
      PartitionDescriptions.headFields(body, head);
      body.put("appliedRetentionLsn", u64(head.appliedRetentionLsn()));
      body.put("appliedRetentionVersion", u64(head.appliedRetentionVersion()));
      body.put("pendingRetention", pending.map(r -> {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("policyVersion", u64(r.policyVersion()));
        request.put("beforeLsn", u64(r.beforeLsn()));
        return request;
      }).orElse(null));
      body.put("fromLsn", u64(from));
      List<Map<String, Object>> segments = new ArrayList<>();
      page.get().segments().forEach(ref -> segments.add(PartitionDescriptions.segment(ref)));
      body.put("segments", segments);
      body.put("nextFromLsn", u64(page.get().nextLsn()));
      body.put("hasMore", page.get().hasMore());
    } catch (RuntimeException e) {
      activity.failure(e);
      body.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    return body;
  }

  /** The partition's segment folder: every object in it, committed or not (scrub removes the rest). */
  private Map<String, Object> segmentObjects(ObjlogStream stream, int partition) {
    Objlog log = streams.log(stream.name());
    KeyPrefixes prefixes = KeyPrefixes.resolve(log.options().prefix(), log.options().catalogPrefix(),
        log.options().segmentRootPrefix());
    String dir = PartitionKeys.of(prefixes, stream.streamId(), partition).segmentsDir();
    long count = 0;
    long bytes = 0;
    Deque<ObjectMetadata> newest = new ArrayDeque<>();
    String after = "";
    boolean truncated = false;
    while (true) {
      ListPage page = streams.store().list(dir, after, 1000);
      for (ObjectMetadata object : page.entries()) {
        count++;
        bytes += object.size();
        newest.addLast(object);
        if (newest.size() > NEWEST) {
          newest.removeFirst();
        }
      }
      if (!page.hasMore() || page.nextAfterKey() == null) {
        break;
      }
      if (count >= MAX_LISTED) {
        truncated = true;
        break;
      }
      after = page.nextAfterKey();
    }
    List<Map<String, Object>> objects = new ArrayList<>();
    newest.descendingIterator().forEachRemaining(o -> {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("key", o.key());
      details.put("sizeBytes", o.size());
      details.put("lastModified", o.lastModified());
      objects.add(details);
    });
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("folder", dir);
    details.put("count", count);
    details.put("bytes", bytes);
    details.put("truncated", truncated);
    details.put("newest", objects);
    return details;
  }

  /** An unsigned 64-bit value as a JSON number that is never negative. */
  static Number u64(long value) {
    return value >= 0 ? value : new BigInteger(Long.toUnsignedString(value));
  }
}
