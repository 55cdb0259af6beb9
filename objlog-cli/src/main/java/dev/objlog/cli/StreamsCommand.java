package dev.objlog.cli;

import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.spring.core.ObjlogStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code objlog streams}: every configured stream and each partition's head. */
@Command(name = "streams", description = "List the configured streams and each partition's head.")
final class StreamsCommand implements Callable<Integer> {
  @ParentCommand ObjlogCli cli;

  @Option(names = "--format", defaultValue = "text", description = "text or json.")
  Output.Format format;

  @Override
  public Integer call() {
    return cli.withSession(session -> {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (ObjlogStream stream : session.streams().streams()) {
        Objlog log = session.streams().log(stream.name());
        for (int p = 0; p < stream.partitions(); p++) {
          Optional<PartitionHead> head = log.head(p);
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("stream", stream.name());
          row.put("streamId", stream.streamId());
          row.put("partition", p);
          row.put("exists", head.isPresent());
          head.ifPresent(h -> {
            row.put("nextLsn", Long.toUnsignedString(h.nextLsn()));
            row.put("oldestLsn", Long.toUnsignedString(h.oldestLsn()));
            row.put("writerEpoch", Long.toUnsignedString(h.writerEpoch()));
            row.put("generation", Long.toUnsignedString(h.generation()));
            row.put("segments", h.reachableSegmentCount());
            row.put("lastSegment", h.lastSegment() == null ? "" : h.lastSegment().uri());
          });
          rows.add(row);
        }
      }
      Output.rows(cli.out, format, rows);
      return 0;
    });
  }
}
