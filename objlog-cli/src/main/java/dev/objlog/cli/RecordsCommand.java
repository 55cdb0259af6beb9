package dev.objlog.cli;

import dev.objlog.Objlog;
import dev.objlog.PartitionHead;
import dev.objlog.read.PartitionReader;
import dev.objlog.read.ReadRecord;
import dev.objlog.read.ReadResult;
import dev.objlog.read.ReaderOptions;
import dev.objlog.read.LogReader;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code objlog dump} and {@code objlog tail}: committed records of one partition. */
final class RecordsCommand {
  private static final int BATCH = 1000;

  private RecordsCommand() {}

  /** Prints up to {@code limit} records from {@code from} (at least the oldest LSN); the count printed. */
  static long print(ObjlogCli cli, CliSession session, String stream, int partition, long from, long limit,
      Output.Format format) {
    Objlog log = session.log(stream, partition);
    PartitionHead head = log.head(partition).orElseThrow(() ->
        new CliException("partition " + partition + " of stream '" + stream + "' has no head yet: nothing was written"));
    long next = Long.compareUnsigned(from, head.oldestLsn()) < 0 ? head.oldestLsn() : from;
    long printed = 0;
    try (LogReader reader = log.newReader(ReaderOptions.defaults())) {
      PartitionReader records = reader.partition(partition);
      while (printed < limit && Long.compareUnsigned(next, head.nextLsn()) < 0) {
        ReadResult batch = records.read(next, (int) Math.min(BATCH, limit - printed));
        if (batch.records().isEmpty()) {
          break;
        }
        for (ReadRecord r : batch.records()) {
          Output.record(cli.out, format, r);
          printed++;
        }
        next = batch.nextLsn();
      }
    }
    cli.out.flush();
    return printed;
  }

  @Command(name = "dump", description = "Print a partition's committed records from an LSN.")
  static final class Dump implements Callable<Integer> {
    @ParentCommand ObjlogCli cli;

    @Parameters(index = "0", description = "The stream's configured name.") String stream;

    @Parameters(index = "1", description = "The partition.") int partition;

    @Option(names = "--from", defaultValue = "0", description = "First LSN (default: the oldest kept).") long from;

    @Option(names = "--limit", defaultValue = "1000", description = "Most records to print.") long limit;

    @Option(names = "--format", defaultValue = "text", description = "text, json (one object per line) or raw (netstrings).")
    Output.Format format;

    @Override
    public Integer call() {
      return cli.withSession(s -> {
        print(cli, s, stream, partition, from, limit, format);
        return 0;
      });
    }
  }

  @Command(name = "tail", description = "Print a partition's newest committed records.")
  static final class Tail implements Callable<Integer> {
    @ParentCommand ObjlogCli cli;

    @Parameters(index = "0", description = "The stream's configured name.") String stream;

    @Parameters(index = "1", description = "The partition.") int partition;

    @Option(names = {"-n", "--records"}, defaultValue = "10", description = "How many of the newest records.") long count;

    @Option(names = "--format", defaultValue = "text", description = "text, json or raw.") Output.Format format;

    @Override
    public Integer call() {
      return cli.withSession(s -> {
        long next = s.log(stream, partition).head(partition).map(PartitionHead::nextLsn).orElse(0L);
        long from = Long.compareUnsigned(next, count) > 0 ? next - count : 0;
        print(cli, s, stream, partition, from, count, format);
        return 0;
      });
    }
  }
}
