package dev.objlog.cli;

import dev.objlog.PartitionHead;
import dev.objlog.SegmentRef;
import dev.objlog.format.segment.BlockInfo;
import dev.objlog.format.segment.SegmentReader;
import dev.objlog.format.segment.SegmentTrailer;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code objlog segment}: a segment object's trailer and block index. */
@Command(name = "segment", description = "Show a segment's trailer and block index: by key, or a partition's newest.")
final class SegmentCommand implements Callable<Integer> {
  @ParentCommand ObjlogCli cli;

  @Parameters(index = "0", arity = "0..1", description = "The segment's object key (as streams or verify print it).")
  @Nullable String key;

  @Option(names = "--stream", description = "With --partition: the partition's newest segment.") @Nullable String stream;

  @Option(names = "--partition", defaultValue = "0") int partition;

  @Option(names = "--format", defaultValue = "text", description = "text or json.") Output.Format format;

  @Override
  public Integer call() {
    return cli.withSession(session -> {
      String segment = key != null ? key : newest(session);
      ObjectStore store = session.store();
      ObjectMetadata metadata = store.head(segment).orElseThrow(() ->
          new CliException("no object at '" + segment + "'"));
      SegmentReader reader = SegmentReader.open((offset, length) -> store.getRange(segment, offset, length), metadata.size());
      SegmentTrailer t = reader.trailer();
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("key", segment);
      summary.put("bytes", metadata.size());
      summary.put("partition", t.partition());
      summary.put("baseLsn", Long.toUnsignedString(t.baseLsn()));
      summary.put("lastLsn", Long.toUnsignedString(t.lastLsn()));
      summary.put("records", t.recordCount());
      summary.put("blocks", t.blockCount());
      summary.put("codec", t.codec());
      summary.put("hash", t.hashAlgorithm());
      summary.put("minTimestampMs", t.minTimestampMs());
      summary.put("maxTimestampMs", t.maxTimestampMs());
      Output.row(cli.out, format, summary);
      int index = 0;
      for (BlockInfo b : reader.blocks()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("block", index++);
        row.put("offset", b.offset());
        row.put("storedBytes", b.storedSize());
        row.put("rawBytes", b.rawSize());
        row.put("baseLsn", Long.toUnsignedString(b.baseLsn()));
        row.put("records", b.recordCount());
        row.put("minTimestampMs", b.minTimestampMs());
        row.put("maxTimestampMs", b.maxTimestampMs());
        Output.row(cli.out, format, row);
      }
      return 0;
    });
  }

  private String newest(CliSession session) {
    if (stream == null) {
      throw new CliException("give a segment key, or --stream NAME [--partition N] for the partition's newest segment");
    }
    PartitionHead head = session.log(stream, partition).head(partition).orElseThrow(() ->
        new CliException("partition " + partition + " of stream '" + stream + "' has no head yet"));
    SegmentRef last = head.lastSegment();
    if (last == null) {
      throw new CliException("partition " + partition + " of stream '" + stream + "' has no segment yet");
    }
    return last.uri();
  }
}
