package dev.objlog.lifecycle;

import dev.objlog.InvalidArgumentException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * Budgets and behaviour of a {@link Reclaimer} (PROTOCOLS.md §5.8). Defaults follow the Go
 * library: delete delay 24 h, pass duration 20 s, list pages of 1000, 10 000 objects scanned, 1000
 * deletes and 1 GiB (soft) deleted per pass, delete batches of 1000, 16 batches in parallel, 256
 * pages in quarantine, 8 compare-and-swap attempts for the state object.
 *
 * <p>Thread-safety: immutable; build with {@link #builder()}.
 *
 * @param ownerId this reclaimer's lease owner id: 32 lowercase hex digits (16 bytes), unique per
 *     process; the default is random
 * @param deleteDelay how long a trimmed floor or an orphan must be old before anything is deleted:
 *     readers that found a segment before retention can still read it this long
 * @param maxPassDuration time budget of one pass; the lease lasts three times this long
 * @param listPageSize keys per listing request (1..1000)
 * @param maxObjectsPerRun objects a pass may list
 * @param maxDeletesPerRun objects a pass may delete
 * @param maxDeleteBytes bytes a pass may delete (soft: the wave that crosses it completes)
 * @param deleteBatchSize keys per delete request (1..1000)
 * @param deleteConcurrency delete requests in flight at once
 * @param deleteRateLimiter shared bound on delete rate
 * @param maxQuarantine pages scrub keeps in quarantine at once (1..1000)
 * @param casAttempts attempts to take the lease when the state keeps changing
 * @param dryRun count what would be deleted; write and delete nothing (no lease is taken)
 * @param clock wall time: the delete delay against objects' store times, and the lease expiry and
 *     times written into the partition's gc state, which other reclaimers read. The pass budget
 *     ({@code maxPassDuration}) is elapsed time, on the log's {@link dev.objlog.ObjlogOptions#ticker()}
 * @param deleteExecutor runs parallel delete batches; null means the reclaimer's own daemon threads
 */
public record ReclaimerOptions(
    String ownerId,
    Duration deleteDelay,
    Duration maxPassDuration,
    int listPageSize,
    int maxObjectsPerRun,
    int maxDeletesPerRun,
    long maxDeleteBytes,
    int deleteBatchSize,
    int deleteConcurrency,
    DeleteRateLimiter deleteRateLimiter,
    int maxQuarantine,
    int casAttempts,
    boolean dryRun,
    Clock clock,
    @Nullable ExecutorService deleteExecutor) {

  public ReclaimerOptions {
    Objects.requireNonNull(ownerId, "ownerId");
    Objects.requireNonNull(deleteDelay, "deleteDelay");
    Objects.requireNonNull(maxPassDuration, "maxPassDuration");
    Objects.requireNonNull(deleteRateLimiter, "deleteRateLimiter");
    Objects.requireNonNull(clock, "clock");
    if (!isOwnerId(ownerId)) {
      throw new InvalidArgumentException("ownerId must be 32 lowercase hex digits, was \"" + ownerId + "\"");
    }
    if (deleteDelay.isNegative()) {
      throw new InvalidArgumentException("deleteDelay must not be negative");
    }
    if (maxPassDuration.isNegative() || maxPassDuration.isZero()) {
      throw new InvalidArgumentException("maxPassDuration must be positive");
    }
    positive(listPageSize, 1000, "listPageSize");
    positive(maxObjectsPerRun, Integer.MAX_VALUE, "maxObjectsPerRun");
    positive(maxDeletesPerRun, Integer.MAX_VALUE, "maxDeletesPerRun");
    if (maxDeleteBytes < 1) {
      throw new InvalidArgumentException("maxDeleteBytes must be positive");
    }
    positive(deleteBatchSize, 1000, "deleteBatchSize");
    positive(deleteConcurrency, 1024, "deleteConcurrency");
    positive(maxQuarantine, GcState.MAX_QUARANTINE, "maxQuarantine");
    positive(casAttempts, 1000, "casAttempts");
  }

  private static void positive(long value, long max, String name) {
    if (value < 1 || value > max) {
      throw new InvalidArgumentException(name + " must be 1.." + max + ", was " + value);
    }
  }

  static boolean isOwnerId(String id) {
    if (id.length() != 32) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
        return false;
      }
    }
    return !id.equals("0".repeat(32));
  }

  /** A random owner id (16 bytes from a secure random, as 32 hex digits). */
  public static String randomOwnerId() {
    byte[] b = new byte[16];
    new SecureRandom().nextBytes(b);
    b[0] |= 1;
    return HexFormat.of().formatHex(b);
  }

  /** The lease length: three times the pass budget. */
  public Duration leaseDuration() {
    return maxPassDuration.multipliedBy(3);
  }

  public static ReclaimerOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().ownerId(ownerId).deleteDelay(deleteDelay).maxPassDuration(maxPassDuration)
        .listPageSize(listPageSize).maxObjectsPerRun(maxObjectsPerRun)
        .maxDeletesPerRun(maxDeletesPerRun).maxDeleteBytes(maxDeleteBytes)
        .deleteBatchSize(deleteBatchSize).deleteConcurrency(deleteConcurrency)
        .deleteRateLimiter(deleteRateLimiter).maxQuarantine(maxQuarantine)
        .casAttempts(casAttempts).dryRun(dryRun).clock(clock).deleteExecutor(deleteExecutor);
  }

  /** Builds {@link ReclaimerOptions}. Not thread-safe. */
  public static final class Builder {
    private String ownerId = randomOwnerId();
    private Duration deleteDelay = Duration.ofHours(24);
    private Duration maxPassDuration = Duration.ofSeconds(20);
    private int listPageSize = 1000;
    private int maxObjectsPerRun = 10_000;
    private int maxDeletesPerRun = 1000;
    private long maxDeleteBytes = 1L << 30;
    private int deleteBatchSize = 1000;
    private int deleteConcurrency = 16;
    private DeleteRateLimiter deleteRateLimiter = DeleteRateLimiter.UNLIMITED;
    private int maxQuarantine = 256;
    private int casAttempts = 8;
    private boolean dryRun;
    private Clock clock = Clock.systemUTC();
    private @Nullable ExecutorService deleteExecutor;

    private Builder() {}

    public Builder ownerId(String value) {
      ownerId = value;
      return this;
    }

    public Builder deleteDelay(Duration value) {
      deleteDelay = value;
      return this;
    }

    public Builder maxPassDuration(Duration value) {
      maxPassDuration = value;
      return this;
    }

    public Builder listPageSize(int value) {
      listPageSize = value;
      return this;
    }

    public Builder maxObjectsPerRun(int value) {
      maxObjectsPerRun = value;
      return this;
    }

    public Builder maxDeletesPerRun(int value) {
      maxDeletesPerRun = value;
      return this;
    }

    public Builder maxDeleteBytes(long value) {
      maxDeleteBytes = value;
      return this;
    }

    public Builder deleteBatchSize(int value) {
      deleteBatchSize = value;
      return this;
    }

    public Builder deleteConcurrency(int value) {
      deleteConcurrency = value;
      return this;
    }

    public Builder deleteRateLimiter(DeleteRateLimiter value) {
      deleteRateLimiter = value;
      return this;
    }

    public Builder maxQuarantine(int value) {
      maxQuarantine = value;
      return this;
    }

    public Builder casAttempts(int value) {
      casAttempts = value;
      return this;
    }

    public Builder dryRun(boolean value) {
      dryRun = value;
      return this;
    }

    public Builder clock(Clock value) {
      clock = value;
      return this;
    }

    public Builder deleteExecutor(@Nullable ExecutorService value) {
      deleteExecutor = value;
      return this;
    }

    public ReclaimerOptions build() {
      return new ReclaimerOptions(ownerId, deleteDelay, maxPassDuration, listPageSize,
          maxObjectsPerRun, maxDeletesPerRun, maxDeleteBytes, deleteBatchSize, deleteConcurrency,
          deleteRateLimiter, maxQuarantine, casAttempts, dryRun, clock, deleteExecutor);
    }
  }
}
