package dev.objlog.reliability;

/**
 * Sizes of the long reliability suites, from environment variables (so {@code .ci/run} runs the
 * README's test command unchanged): a CI default under {@code CI=true}, a small local default
 * otherwise. Documented in docs/RELIABILITY.md.
 */
final class Budgets {
  static final String SIM_SEEDS = "OBJLOG_SIM_SEEDS";
  static final String CRASH_KILLS = "OBJLOG_CRASH_KILLS";
  static final String FUZZ_CASES = "OBJLOG_FUZZ_CASES";
  static final String S3PROXY_KILLS = "OBJLOG_S3PROXY_KILLS";
  /** Replays one simulation seed (or fuzz base seed) instead of the whole range. */
  static final String SIM_SEED = "OBJLOG_SIM_SEED";
  static final String FUZZ_SEED = "OBJLOG_FUZZ_SEED";
  /** Repeats each fencing race (and the filesystem cross-process race) this many times. */
  static final String RACE_RUNS = "OBJLOG_RACE_RUNS";

  private Budgets() {}

  static boolean ci() {
    return dev.objlog.testing.Ci.isCi();
  }

  static int simulationSeeds() {
    return count(SIM_SEEDS, 1_000, 50);
  }

  static int crashKills() {
    return count(CRASH_KILLS, 50, 6);
  }

  /** SIGKILLs of the S3Proxy server itself, cycling over its four pause points. */
  static int s3ProxyKills() {
    return count(S3PROXY_KILLS, 8, 4);
  }

  static int fuzzCases() {
    return count(FUZZ_CASES, 100_000, 10_000);
  }

  static int raceRuns() {
    return count(RACE_RUNS, 1, 1);
  }

  static int count(String name, int ciDefault, int localDefault) {
    return dev.objlog.testing.Ci.suiteSize(name, ciDefault, localDefault);
  }

  static java.util.OptionalLong fixedSeed(String name) {
    return dev.objlog.testing.Ci.setting(name).stream().mapToLong(Long::parseLong).findFirst();
  }
}
