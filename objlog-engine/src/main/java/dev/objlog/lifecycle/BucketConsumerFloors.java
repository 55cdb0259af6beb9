package dev.objlog.lifecycle;

import dev.objlog.CorruptObjectException;
import dev.objlog.Objlog;
import dev.objlog.format.key.KeyPrefixes;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.read.CheckpointInvalidException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.store.ListPage;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectNotFoundException;
import dev.objlog.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ConsumerFloors#inBucket}: lists the partition's {@code consumers/} folder and reads each
 * checkpoint document. A document of another stream or partition is refused as corrupt, because
 * retention must not trust a floor it cannot attribute.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class BucketConsumerFloors implements ConsumerFloors {
  private static final String DOCUMENT = "/checkpoint.json";
  private final Objlog log;
  private final KeyPrefixes prefixes;

  BucketConsumerFloors(Objlog log) {
    this.log = log;
    var o = log.options();
    this.prefixes = KeyPrefixes.resolve(o.prefix(), o.catalogPrefix(), o.segmentRootPrefix());
  }

  @Override
  public List<ConsumerFloor> floors(int partition) {
    ObjectStore store = log.store();
    String folder = PartitionKeys.of(prefixes, log.streamId(), partition).catalogDir() + "consumers/";
    List<ConsumerFloor> out = new ArrayList<>();
    String after = "";
    while (true) {
      ListPage page = store.list(folder, after, 1000);
      for (ObjectMetadata entry : page.entries()) {
        String rest = entry.key().substring(folder.length());
        if (!rest.endsWith(DOCUMENT) || rest.indexOf('/') != rest.length() - DOCUMENT.length()) {
          continue; // not a consumer checkpoint (a lease, say)
        }
        String consumer = rest.substring(0, rest.length() - DOCUMENT.length());
        CursorCheckpoint checkpoint;
        try {
          checkpoint = CursorCheckpoint.parse(store.get(entry.key()).bytes());
        } catch (ObjectNotFoundException e) {
          continue; // deleted since the listing: the consumer went away
        } catch (CheckpointInvalidException e) {
          throw new CorruptObjectException(entry.key() + " is not a consumer checkpoint: " + e.getMessage(), e);
        }
        if (!checkpoint.streamId().equals(log.streamId()) || checkpoint.partition() != partition) {
          throw new CorruptObjectException(entry.key() + " is the checkpoint of stream " + checkpoint.streamId()
              + " partition " + Integer.toUnsignedString(checkpoint.partition()) + ", not of "
              + log.streamId() + " partition " + Integer.toUnsignedString(partition));
        }
        out.add(new ConsumerFloor(consumer, partition, checkpoint.nextLsn()));
      }
      String next = page.nextAfterKey();
      if (!page.hasMore() || next == null) {
        return List.copyOf(out);
      }
      after = next;
    }
  }

  @Override
  public String toString() {
    return "ConsumerFloors.inBucket[" + log.streamId() + "]";
  }
}
