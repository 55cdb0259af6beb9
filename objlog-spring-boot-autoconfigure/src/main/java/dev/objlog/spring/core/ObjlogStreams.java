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

/**
 * The configured streams of one application, by name: one {@link Objlog} each, all on the same
 * {@link ObjectStore}, and one shared {@link LogReader} per stream built with the configured
 * reader options ({@code objlog.reader.*}).
 *
 * <p>Opening does no I/O. {@link #close()} closes the readers and logs (never the store).
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class ObjlogStreams implements AutoCloseable {
  private static final Log logger = LogFactory.getLog(ObjlogStreams.class);

  private final ObjectStore store;
  private final Map<String, ObjlogStream> streams;
  private final Map<String, Objlog> logs;
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
    this.store = Objects.requireNonNull(store, "store");
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

  /** The configured stream names, in configuration order. */
  public Set<String> names() {
    return streams.keySet();
  }

  /** Every configured stream, in configuration order. */
  public Collection<ObjlogStream> streams() {
    return streams.values();
  }

  /**
   * @throws UnknownStreamException if no stream has that name
   */
  public ObjlogStream stream(String name) {
    ObjlogStream stream = streams.get(name);
    if (stream == null) {
      throw new UnknownStreamException(name, streams.keySet());
    }
    return stream;
  }

  public Optional<ObjlogStream> find(String name) {
    return Optional.ofNullable(streams.get(name));
  }

  /**
   * The {@link Objlog} of a stream. Owned by this bean: do not close it.
   *
   * @throws UnknownStreamException if no stream has that name
   */
  public Objlog log(String name) {
    Objlog log = logs.get(name);
    if (log == null) {
      throw new UnknownStreamException(name, streams.keySet());
    }
    return log;
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
    if (closed) {
      return;
    }
    closed = true;
    for (Map.Entry<String, Objlog> entry : logs.entrySet()) {
      try {
        entry.getValue().close();
      } catch (RuntimeException e) {
        logger.warn("Closing the objlog of stream '" + entry.getKey() + "' failed", e);
      }
    }
  }
}
