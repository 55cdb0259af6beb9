package dev.objlog.spring.core;

import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.read.LogReader;
import dev.objlog.read.ReaderOptions;
import dev.objlog.store.ObjectStore;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The configured streams of one application, by name: one {@link Objlog} each, all on the same
 * {@link ObjectStore}, and one shared {@link LogReader} per stream built with the configured
 * reader options ({@code objlog.reader.*}).
 *
 * <p>With a {@link StreamAutoCreator} ({@code objlog.defaults.auto-create}), a name that is not
 * configured opens the stream of that id on first use, with the partition count recorded in the
 * bucket; it then stays among {@link #names()} until close. Without one, an unknown name is an
 * {@link UnknownStreamException}.
 *
 * <p>Opening the configured streams does no I/O; opening an auto-created one reads (and the first
 * time writes) its record. {@link #close()} closes the readers and logs (never the store).
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class ObjlogStreams implements AutoCloseable {
  private static final Log logger = LogFactory.getLog(ObjlogStreams.class);

  private final ObjectStore store;
  private final ObjlogOptions options;
  private final @Nullable StreamAutoCreator autoCreator;
  /** Replaced (copy on write, under {@code this}) when a stream is auto-created. */
  private volatile Map<String, ObjlogStream> streams;
  private volatile Map<String, Objlog> logs;
  private final ReaderOptions readerOptions;
  private final Map<String, LogReader> readers = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param store the store every stream lives in
   * @param streams the streams, with unique names
   * @param options options of every log (key prefix, meter registry, ...)
   * @param readerOptions options of the shared reader of each stream
   */
  public ObjlogStreams(ObjectStore store, Collection<ObjlogStream> streams, ObjlogOptions options,
      ReaderOptions readerOptions) {
    this(store, streams, options, readerOptions, null);
  }

  /**
   * As above, opening streams that are not among {@code streams} through {@code autoCreator} when
   * it is not null.
   */
  public ObjlogStreams(ObjectStore store, Collection<ObjlogStream> streams, ObjlogOptions options,
      ReaderOptions readerOptions, @Nullable StreamAutoCreator autoCreator) {
    this.store = Objects.requireNonNull(store, "store");
    this.options = Objects.requireNonNull(options, "options");
    this.autoCreator = autoCreator;
    this.readerOptions = Objects.requireNonNull(readerOptions, "readerOptions");
    Map<String, ObjlogStream> byName = new LinkedHashMap<>();
    Map<String, Objlog> logsByName = new LinkedHashMap<>();
    for (ObjlogStream stream : streams) {
      if (byName.putIfAbsent(stream.name(), stream) != null) {
        throw new IllegalArgumentException("two streams are named '" + stream.name() + "'");
      }
      logsByName.put(stream.name(), Objlog.open(store, stream.streamId(), options));
    }
    this.streams = Collections.unmodifiableMap(byName);
    this.logs = Collections.unmodifiableMap(logsByName);
  }

  /** The stream names, configured ones in configuration order, then auto-created ones as opened. */
  public Set<String> names() {
    return streams.keySet();
  }

  /** Every stream, in the order of {@link #names()}. */
  public Collection<ObjlogStream> streams() {
    return streams.values();
  }

  /**
   * The stream of that name, auto-created when that is on.
   *
   * @throws UnknownStreamException if no stream has that name (and auto-creation is off)
   * @throws StreamPartitionsException if auto-creation cannot agree on its partition count
   */
  public ObjlogStream stream(String name) {
    ObjlogStream stream = streams.get(name);
    return stream != null ? stream : autoCreate(name);
  }

  /** The stream of that name if it is configured or was auto-created already; never creates one. */
  public Optional<ObjlogStream> find(String name) {
    return Optional.ofNullable(streams.get(name));
  }

  /** Whether unknown names open streams ({@code objlog.defaults.auto-create}). */
  public boolean autoCreates() {
    return autoCreator != null;
  }

  /** The options every log of these streams was opened with (meters, ticker, prefix). */
  public ObjlogOptions options() {
    return options;
  }

  /**
   * The {@link Objlog} of a stream. Owned by this bean: do not close it.
   *
   * @throws UnknownStreamException if no stream has that name (and auto-creation is off)
   */
  public Objlog log(String name) {
    Objlog log = logs.get(name);
    if (log == null) {
      stream(name);
      log = logs.get(name);
    }
    return log;
  }

  private synchronized ObjlogStream autoCreate(String name) {
    ObjlogStream known = streams.get(name);
    if (known != null) {
      return known;
    }
    if (autoCreator == null || closed) {
      throw new UnknownStreamException(name, streams.keySet());
    }
    if (StreamAutoCreator.isStreamName(name)) {
      String id = dev.objlog.format.key.StreamIds.canonical(name);
      for (ObjlogStream other : streams.values()) {
        if (other.streamId().equals(id)) {
          // A second name for one stream would fence the first one's writers.
          throw new dev.objlog.InvalidArgumentException("stream id \"" + id + "\" is configured under the name '"
              + other.name() + "'; use that name, not '" + name + "'");
        }
      }
    }
    ObjlogStream created = autoCreator.open(name);
    Map<String, ObjlogStream> nextStreams = new LinkedHashMap<>(streams);
    nextStreams.put(name, created);
    Map<String, Objlog> nextLogs = new LinkedHashMap<>(logs);
    nextLogs.put(name, Objlog.open(store, created.streamId(), options));
    logs = Collections.unmodifiableMap(nextLogs);
    streams = Collections.unmodifiableMap(nextStreams);
    logger.info("objlog opened stream '" + name + "' with " + created.partitions()
        + " partitions by auto-creation (objlog.defaults.auto-create)");
    return created;
  }

  /**
   * The stream's shared reader, with the configured reader options; created on first use. Owned
   * by this bean: do not close it.
   *
   * @throws UnknownStreamException if no stream has that name
   */
  public LogReader reader(String name) {
    Objlog log = log(name);
    return readers.computeIfAbsent(name, n -> log.newReader(readerOptions));
  }

  public ObjectStore store() {
    return store;
  }

  public ReaderOptions readerOptions() {
    return readerOptions;
  }

  /** Closes the shared readers and the logs. Idempotent. Close writers (the template) first. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    for (Map.Entry<String, Objlog> entry : logs.entrySet()) {
      try {
        entry.getValue().close();
      } catch (RuntimeException e) {
        logger.warn("Closing the objlog of stream '" + entry.getKey() + "' failed", e);
      }
    }
  }
}
