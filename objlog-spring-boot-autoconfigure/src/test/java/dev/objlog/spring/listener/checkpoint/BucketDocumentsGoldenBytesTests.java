package dev.objlog.spring.listener.checkpoint;

import dev.objlog.coordination.BucketLease;
import dev.objlog.coordination.Lease;
import dev.objlog.coordination.LeaseState;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.CorruptObjectException;
import dev.objlog.UnsupportedVersionException;
import dev.objlog.read.CursorCheckpoint;
import dev.objlog.replica.ConsumerCheckpointDocument;
import dev.objlog.store.VersionToken;
import dev.objlog.store.memory.MemoryObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The exact bytes of the lease documents and bucket checkpoints (ours; ARCHITECTURE.md, "Our own
 * objects in the bucket"), and what their readers accept: a flat object of strings, unsigned
 * integers, booleans and null. Instances of the previous release read and write these documents in
 * the same group, so neither the bytes nor the rules may drift with a change of JSON codec.
 */
class BucketDocumentsGoldenBytesTests {
  private static final long NOW = 1_700_000_000_000L;
  private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);

  private static void assertBytes(byte[] actual, String expected) {
    assertThat(new String(actual, UTF_8)).as("document text").isEqualTo(expected);
    assertThat(actual).as("document bytes of " + expected).isEqualTo(expected.getBytes(UTF_8));
  }

  @Test
  void aLeaseIsWrittenByteForByte() {
    assertBytes(BucketLease.encode(new LeaseState("instance-1", NOW + 30_000, 1)),
        "{\"version\":1,\"owner\":\"instance-1\",\"lease_until_unix_ms\":1700000030000,\"epoch\":1}");
    assertBytes(BucketLease.encode(new LeaseState("", 0, 7)),
        "{\"version\":1,\"owner\":\"\",\"lease_until_unix_ms\":0,\"epoch\":7}");
    assertBytes(BucketLease.encode(new LeaseState("o", Long.MAX_VALUE, Long.MAX_VALUE)),
        "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":9223372036854775807,\"epoch\":9223372036854775807}");
    assertBytes(BucketLease.encode(new LeaseState("o", -1, Long.MIN_VALUE)),
        "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":-1,\"epoch\":-9223372036854775808}");
  }

  @Test
  void aLeaseOwnerIsEscapedMinimallyNotTheGoWay() {
    // Lease documents are ours alone and were never HTML-escaped; an unpaired surrogate became '?'.
    assertBytes(BucketLease.encode(new LeaseState("a\"b<c>&d\u2028\u2029\u00e9\ud83d\ude00 x\ud800", 1, 2)),
        "{\"version\":1,\"owner\":\"a\\\"b<c>&d\u2028\u2029\u00e9\ud83d\ude00 x?\",\"lease_until_unix_ms\":1,\"epoch\":2}");
    assertBytes(BucketLease.encode(new LeaseState("\\\n\r\t\b\f\u0001\u001f", 1, 2)),
        "{\"version\":1,\"owner\":\"\\\\\\n\\r\\t\\u0008\\u000c\\u0001\\u001f\",\"lease_until_unix_ms\":1,\"epoch\":2}");
  }

  @Test
  void aBucketCheckpointIsTheCursorJsonPlusItsUpdateTime() {
    assertBytes(ConsumerCheckpointDocument.encode(CursorCheckpoint.of("demo/orders", 7, 4), NOW),
        "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"updated_unix_ms\":1700000000000}");
    assertBytes(ConsumerCheckpointDocument.encode(new CursorCheckpoint(1, "demo/orders", -1, -1L), Long.MAX_VALUE),
        "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":4294967295,\"next_lsn\":18446744073709551615,"
            + "\"updated_unix_ms\":9223372036854775807}");
    // The checkpoint part is the cursor checkpoint's own (Go) encoding, escapes included.
    assertBytes(ConsumerCheckpointDocument.encode(CursorCheckpoint.of("a<&>\u2028", 0, Long.MIN_VALUE), -1),
        "{\"version\":1,\"stream_id\":\"a\\u003c\\u0026\\u003e\\u2028\",\"partition\":0,"
            + "\"next_lsn\":9223372036854775808,\"updated_unix_ms\":-1}");
  }

  // ---- reading ----

  private static BucketLease leaseHolding(String json) {
    MemoryObjectStore store = new MemoryObjectStore();
    store.compareAndSwap("lease.json", VersionToken.ABSENT, json.getBytes(UTF_8));
    return new BucketLease(store, "lease.json", CLOCK);
  }

  @Test
  void aLeaseIsReadBackWithUnknownFlatFieldsIgnored() {
    Lease lease = leaseHolding("{\"version\":1,\"owner\":\"a\\u003c\\\"\",\"lease_until_unix_ms\":1700000030000,"
        + "\"epoch\":9223372036854775807,\"note\":\"x\",\"flag\":true,\"gone\":null,\"n\":18446744073709551615}")
        .current().orElseThrow();
    assertThat(lease.owner()).isEqualTo("a<\"");
    assertThat(lease.epoch()).isEqualTo(Long.MAX_VALUE);
    assertThat(lease.until()).isEqualTo(Instant.ofEpochMilli(NOW + 30_000));
    assertThat(leaseHolding(" {\"version\" : 1 , \"owner\":\"\",\"lease_until_unix_ms\":0,\"epoch\":3}\n").current())
        .isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "[]", "{", "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1,}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1} x",
      "{\"version\":1,\"owner\":\"o\",\"owner\":\"p\",\"lease_until_unix_ms\":1,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1}",
      "{\"version\":1,\"owner\":7,\"lease_until_unix_ms\":1,\"epoch\":1}",
      "{\"version\":\"1\",\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":-1,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1.5,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1e3,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":01,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":9223372036854775808}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1,\"x\":{}}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1,\"x\":[1]}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1,\"x\":-2}",
      "{\"version\":1,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1,\"x\":0.5}",
      "{\"version\":1,\"owner\":\"o\\x\",\"lease_until_unix_ms\":1,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"o\\u12\",\"lease_until_unix_ms\":1,\"epoch\":1}",
      "{\"version\":1,\"owner\":\"\u0001\",\"lease_until_unix_ms\":1,\"epoch\":1}",
      "{\"version\":1,\"owner\":null,\"lease_until_unix_ms\":1,\"epoch\":1}",
      "{version:1}"})
  void aMalformedLeaseIsCorrupt(String json) {
    assertThatThrownBy(() -> leaseHolding(json).current()).as(json).isInstanceOf(CorruptObjectException.class)
        .isNotInstanceOf(UnsupportedVersionException.class).hasMessageContaining("is not a lease document");
  }

  @Test
  void aLeaseOfAnotherVersionIsUnsupported() {
    assertThatThrownBy(() -> leaseHolding("{\"version\":2,\"owner\":\"o\",\"lease_until_unix_ms\":1,\"epoch\":1}")
        .current()).isInstanceOf(UnsupportedVersionException.class).hasMessageContaining("version 2");
  }

  private static final CatalogLocator LOCATOR = BucketCheckpointRepositoryTests.LOCATOR;

  private static BucketCheckpointRepository repositoryHolding(String json) {
    MemoryObjectStore store = new MemoryObjectStore();
    BucketCheckpointRepository repository = new BucketCheckpointRepository(store, LOCATOR, CLOCK);
    store.compareAndSwap(repository.checkpointObjectKey(CheckpointKey.of("l", "orders", 7)), VersionToken.ABSENT,
        json.getBytes(UTF_8));
    return repository;
  }

  @Test
  void aBucketCheckpointIsReadBackWithOrWithoutItsUpdateTime() {
    StoredCheckpoint stored = repositoryHolding("{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,"
        + "\"next_lsn\":18446744073709551615,\"updated_unix_ms\":9223372036854775807,\"extra\":true}")
        .load(CheckpointKey.of("l", "orders", 7)).orElseThrow();
    assertThat(stored.checkpoint()).isEqualTo(new CursorCheckpoint(1, "demo/orders", 7, -1L));
    assertThat(stored.updatedAt()).isEqualTo(Instant.ofEpochMilli(Long.MAX_VALUE));
    assertThat(repositoryHolding("{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4}")
        .load(CheckpointKey.of("l", "orders", 7)).orElseThrow().checkpoint())
        .isEqualTo(CursorCheckpoint.of("demo/orders", 7, 4));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "{}", "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"updated_unix_ms\":-1}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"updated_unix_ms\":1.0}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"updated_unix_ms\":\"1\"}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,"
          + "\"updated_unix_ms\":9223372036854775808}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"x\":{\"y\":1}}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"x\":[]}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"x\":-1}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"x\":2e1}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4,\"next_lsn\":4}",
      "{\"version\":1,\"stream_id\":\"demo/orders\",\"partition\":7,\"next_lsn\":4}}"})
  void aMalformedBucketCheckpointIsCorrupt(String json) {
    assertThatThrownBy(() -> repositoryHolding(json).load(CheckpointKey.of("l", "orders", 7))).as(json)
        .isInstanceOf(CorruptObjectException.class).hasMessageContaining("is not a checkpoint");
  }
}
