package dev.objlog.cli;

import dev.objlog.PartitionVerification;
import dev.objlog.VerifyOptions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code objlog verify}: {@link dev.objlog.Objlog#verifyPartition}, exit code 1 when it finds problems. */
@Command(name = "verify", description = "Verify a partition's head, catalog pages and segments (read-only).")
final class VerifyCommand implements Callable<Integer> {
  @ParentCommand ObjlogCli cli;

  @Parameters(index = "0", description = "The stream's configured name.") String stream;

  @Parameters(index = "1", description = "The partition.") int partition;

  @Option(names = "--hashes", description = "Read every segment in full and check its hashes.") boolean hashes;

  @Option(names = "--rate", defaultValue = "50", description = "Most store requests per second (0: unlimited).")
  double rate;

  @Option(names = "--progress-every", defaultValue = "1000",
      description = "Print progress to stderr after this many segments (0: never).")
  long progressEvery;

  @Option(names = "--format", defaultValue = "text", description = "text or json.") Output.Format format;

  @Override
  public Integer call() {
    return cli.withSession(session -> {
      VerifyOptions options = VerifyOptions.defaults().withSegmentHashes(hashes).withMaxRequestsPerSecond(rate)
          .withProgress(p -> {
            if (progressEvery > 0 && p.segmentsChecked() > 0 && p.segmentsChecked() % progressEvery == 0) {
              cli.err.println("verify: " + p.segmentsChecked() + "/" + p.segmentsTotal() + " segments, "
                  + p.pagesChecked() + " pages, " + p.requests() + " requests, " + p.problems() + " problems");
            }
          });
      PartitionVerification v = session.log(stream, partition).verifyPartition(partition, options);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("stream", stream);
      row.put("partition", partition);
      row.put("outcome", v.outcome());
      row.put("nextLsn", Long.toUnsignedString(v.nextLsn()));
      row.put("oldestLsn", Long.toUnsignedString(v.oldestLsn()));
      row.put("pages", v.leafPages() + v.indexPages());
      row.put("segments", v.segments());
      row.put("segmentsChecked", v.segmentsChecked());
      row.put("hashes", v.segmentHashesChecked());
      row.put("requests", v.requests());
      row.put("problems", v.problemCount());
      Output.row(cli.out, format, row);
      for (PartitionVerification.Problem p : v.problems()) {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("problem", p.kind());
        problem.put("key", p.key());
        problem.put("detail", p.detail());
        Output.row(cli.out, format, problem);
      }
      return v.ok() ? 0 : ObjlogCli.PROBLEMS_FOUND;
    });
  }
}
