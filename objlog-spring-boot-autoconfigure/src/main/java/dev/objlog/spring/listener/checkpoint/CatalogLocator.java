package dev.objlog.spring.listener.checkpoint;

import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import java.util.Objects;
import java.util.function.Function;

/**
 * Finds a partition's catalog folder from the stream's configured name, for the objects the bucket
 * repositories keep beside it ({@code consumers/<id>/checkpoint.json}, {@code
 * consumers/<group>/lease.json}, {@code maintenance/writer-lease.json}).
 *
 * <p>Thread-safety: implementations must be safe for concurrent use.
 */
@FunctionalInterface
public interface CatalogLocator {

  /**
   * The keys of {@code partition} of the stream configured under {@code streamName}.
   *
   * @throws IllegalArgumentException when no stream has that name
   */
  PartitionKeys partition(String streamName, int partition);

  /**
   * A locator for streams under the store prefix {@code prefix} (as {@code objlog.store.prefix}),
   * mapping names to stream ids with {@code streamIdOfName} (as {@code ObjlogProperties#streamId}).
   */
  static CatalogLocator of(String prefix, Function<String, String> streamIdOfName) {
    KeyPrefixes prefixes = KeyPrefixes.resolve(Objects.requireNonNull(prefix, "prefix"));
    Objects.requireNonNull(streamIdOfName, "streamIdOfName");
    return (streamName, partition) -> PartitionKeys.of(prefixes, streamIdOfName.apply(streamName), partition);
  }
}
