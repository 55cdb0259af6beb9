package dev.objlog.spring.listener;

import dev.objlog.LogRecord;
import dev.objlog.Objlog;
import dev.objlog.ObjlogOptions;
import dev.objlog.PartitionWriter;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import java.nio.file.Path;

/**
 * Child JVM of {@link ListenerSeesAnotherProcessTests}: appends records {@code p0 .. p<n-1>} to
 * partition 0 of a stream on the filesystem store, flushes, prints {@code DONE .} and exits.
 * Args: root, prefix, stream id, n.
 */
public final class OtherProcessWriter {
  private OtherProcessWriter() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[3]);
    try (FilesystemObjectStore store = FilesystemObjectStore.open(Path.of(args[0]));
        Objlog log = Objlog.open(store, args[2], ObjlogOptions.builder().prefix(args[1]).build());
        PartitionWriter writer = log.openWriter(0)) {
      for (int i = 0; i < n; i++) {
        writer.append(LogRecord.of(i, "p" + i));
      }
      writer.flush();
    }
    System.out.println("DONE .");
    System.out.flush();
  }
}
