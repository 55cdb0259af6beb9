package dev.objlog.cli;

import dev.objlog.Objlog;
import dev.objlog.RetentionRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code objlog retention}: requests retention of a partition (writes its retention mailbox; the
 * partition's writer applies it). Needs {@code --allow-writes}.
 */
@Command(name = "retention", description = "Request retention below an LSN (needs --allow-writes); the writer applies it.")
final class RetentionCommand implements Callable<Integer> {
  @ParentCommand ObjlogCli cli;

  @Parameters(index = "0", description = "The stream's configured name.") String stream;

  @Parameters(index = "1", description = "The partition.") int partition;

  @Option(names = "--before", required = true, description = "Records below this LSN may be trimmed.") long beforeLsn;

  @Option(names = "--policy-version", defaultValue = "0",
      description = "Policy version (default: the current one plus one).")
  long policyVersion;

  @Option(names = "--format", defaultValue = "text", description = "text or json.") Output.Format format;

  @Override
  public Integer call() {
    if (!cli.allowWrites) {
      throw new CliException("retention writes the partition's retention mailbox: add --allow-writes");
    }
    return cli.withSession(session -> {
      Objlog log = session.log(stream, partition);
      long version = policyVersion != 0 ? policyVersion
          : log.retentionRequest(partition).map(RetentionRequest::policyVersion).orElse(0L) + 1;
      RetentionRequest r = log.requestRetention(partition, version, beforeLsn);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("stream", stream);
      row.put("partition", partition);
      row.put("policyVersion", Long.toUnsignedString(r.policyVersion()));
      row.put("beforeLsn", Long.toUnsignedString(r.beforeLsn()));
      row.put("outcome", r.outcome());
      Output.row(cli.out, format, row);
      return 0;
    });
  }
}
