package dev.objlog.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code objlog}: inspect, verify and maintain a bucket-backed log from a shell, on any store the
 * starter supports, configured with the starter's property names (docs/CLI.md).
 *
 * <p>Exit codes: 0 done; 1 a verification found problems; 2 a mistake in the command or the
 * configuration (the message says what to change); 3 the store failed.
 *
 * <p>Thread-safety: one run per instance.
 */
@Command(
    name = "objlog",
    mixinStandardHelpOptions = true,
    version = "objlog 0.1.0-SNAPSHOT",
    description = "Inspect, verify and maintain an objlog log in its bucket. Configured like the Spring Boot"
        + " starter: objlog.* properties from --config, the environment (OBJLOG_STORE_TYPE=...) and --set.",
    subcommands = {
      StreamsCommand.class, RecordsCommand.Dump.class, RecordsCommand.Tail.class, SegmentCommand.class,
      VerifyCommand.class, RetentionCommand.class
    })
public final class ObjlogCli {
  /** Exit code of a verification that found problems. */
  public static final int PROBLEMS_FOUND = 1;

  /** Exit code of a mistake in the command or configuration. */
  public static final int USAGE = 2;

  /** Exit code of a store failure. */
  public static final int STORE_FAILED = 3;

  @Option(names = "--config", paramLabel = "FILE",
      description = "A properties or YAML file of objlog.* settings, as an application would have.")
  @Nullable Path config;

  @Option(names = "--set", paramLabel = "KEY=VALUE",
      description = "One setting, e.g. --set objlog.store.type=s3; wins over the file and the environment.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--allow-writes",
      description = "Let the command write to the bucket (needed by retention). Without it the store is read-only.")
  boolean allowWrites;

  @Option(names = "--self-test",
      description = "Run the starter's conditional-write self-test first (writes scratch objects; needs --allow-writes).")
  boolean selfTest;

  PrintStream out = System.out;
  PrintStream err = System.err;

  /** Runs one command against the configured store. */
  <T> T withSession(Function<CliSession, T> command) {
    if (selfTest && !allowWrites) {
      throw new CliException("--self-test writes scratch objects: add --allow-writes");
    }
    try (CliSession session = CliSession.open(config, settings, allowWrites, selfTest)) {
      return command.apply(session);
    }
  }

  public static void main(String[] args) {
    System.exit(run(System.out, System.err, args));
  }

  /** Runs the command line {@code args}, printing to {@code out} and {@code err}; the exit code. */
  public static int run(PrintStream out, PrintStream err, String... args) {
    ObjlogCli cli = new ObjlogCli();
    cli.out = out;
    cli.err = err;
    CommandLine line = new CommandLine(cli);
    line.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    line.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    line.setExitCodeExceptionMapper(e -> e instanceof dev.objlog.store.StoreException ? STORE_FAILED : USAGE);
    line.setExecutionExceptionHandler((e, commandLine, parsed) -> {
      if (e instanceof CliException) {
        err.println("objlog: " + e.getMessage());
        return USAGE;
      }
      if (e instanceof dev.objlog.store.StoreException) {
        err.println("objlog: the store failed: " + e.getMessage());
        return STORE_FAILED;
      }
      if (e instanceof UnsupportedOperationException) {
        err.println("objlog: " + e.getMessage() + "; add --allow-writes to let this command write");
        return USAGE;
      }
      if (e instanceof dev.objlog.ObjlogException) {
        err.println("objlog: " + e.getMessage());
        return USAGE;
      }
      throw e;
    });
    return line.execute(args);
  }
}
