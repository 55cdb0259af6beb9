package dev.objlog.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every promise of the {@link ObjectStore} SPI, as one suite that each provider's test class
 * extends. A subclass supplies a store; each test works under its own random prefix, so a subclass
 * may hand out one shared store (one server, one bucket) for the whole class.
 */
public abstract class ObjectStoreContract {

  /** Rounds of each 8-thread race; exactly one writer must win every round. */
  protected static final int RACE_ROUNDS = 20;

  private static final int RACERS = 8;

  protected ObjectStore store;
  protected String prefix;

  /** The store under test. Called before each test. */
  protected abstract ObjectStore createStore() throws Exception;

  /** Releases what {@link #createStore()} made. Called after each test. */
  protected void releaseStore(ObjectStore store) throws Exception {
    store.close();
  }

  /** A body size that forces the provider's multi-part path (several parts or blocks). */
  protected int largeUploadSize() {
    return 3 * 1024 * 1024 + 17;
  }

  @BeforeEach
  void openStore() throws Exception {
    store = createStore();
    prefix = "contract/" + UUID.randomUUID() + "/";
  }

  @AfterEach
  void closeStore() throws Exception {
    releaseStore(store);
  }

  protected String key(String name) {
    return prefix + name;
  }

  protected static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  private static VersionToken created(CreateResult result) {
    assertThat(result).isInstanceOf(CreateResult.Created.class);
    return ((CreateResult.Created) result).token();
  }

  // --- reads -------------------------------------------------------------------------------

  @Test
  void getOfMissingKeyThrowsNotFound() {
    assertThatThrownBy(() -> store.get(key("missing"))).isInstanceOf(ObjectNotFoundException.class);
    assertThatThrownBy(() -> store.getRange(key("missing"), 0, 10))
        .isInstanceOf(ObjectNotFoundException.class);
  }

  @Test
  void headOfMissingKeyIsEmpty() {
    assertThat(store.head(key("missing"))).isEmpty();
  }

  @Test
  void getReturnsBytesWithTheMetadataOfThatVersion() {
    VersionToken token = created(store.putIfAbsent(key("a"), bytes("hello world")));
    StoredObject object = store.get(key("a"));
    assertThat(object.bytes()).isEqualTo(bytes("hello world"));
    assertThat(object.key()).isEqualTo(key("a"));
    assertThat(object.metadata().size()).isEqualTo(11);
    assertThat(object.token()).isEqualTo(token);
    ObjectMetadata head = store.head(key("a")).orElseThrow();
    assertThat(head.size()).isEqualTo(11);
    assertThat(head.token()).isEqualTo(token);
    assertThat(head.key()).isEqualTo(key("a"));
  }

  @Test
  void emptyObjectsAreObjects() {
    created(store.putIfAbsent(key("empty"), new byte[0]));
    assertThat(store.get(key("empty")).bytes()).isEmpty();
    assertThat(store.head(key("empty")).orElseThrow().size()).isZero();
    assertThat(store.getRange(key("empty"), 0, 10)).isEmpty();
  }

  @Test
  void rangedGetReturnsTheRangeClippedAtTheEnd() {
    created(store.putIfAbsent(key("r"), bytes("0123456789")));
    assertThat(store.getRange(key("r"), 0, 4)).isEqualTo(bytes("0123"));
    assertThat(store.getRange(key("r"), 3, 4)).isEqualTo(bytes("3456"));
    assertThat(store.getRange(key("r"), 7, 100)).isEqualTo(bytes("789"));
    assertThat(store.getRange(key("r"), 9, 1)).isEqualTo(bytes("9"));
    assertThat(store.getRange(key("r"), 10, 5)).isEmpty();
    assertThat(store.getRange(key("r"), 50, 5)).isEmpty();
    assertThat(store.getRange(key("r"), 2, 0)).isEmpty();
  }

  @Test
  void rangedGetOfTheLastBytesOfALargerObject() {
    byte[] body = new byte[200_000];
    new Random(7).nextBytes(body);
    created(store.putIfAbsent(key("big"), body));
    assertThat(store.getRange(key("big"), body.length - 192, 192))
        .isEqualTo(Arrays.copyOfRange(body, body.length - 192, body.length));
  }

  // --- create-only -------------------------------------------------------------------------

  @Test
  void createOnlyPutRefusesAnExistingKeyAndKeepsTheOriginal() {
    created(store.putIfAbsent(key("once"), bytes("first")));
    assertThat(store.putIfAbsent(key("once"), bytes("second")))
        .isInstanceOf(CreateResult.AlreadyExists.class);
    assertThat(store.get(key("once")).bytes()).isEqualTo(bytes("first"));
  }

  // --- compare-and-swap --------------------------------------------------------------------

  @Test
  void compareAndSwapWithTheCurrentTokenReplacesAndChangesTheToken() {
    VersionToken first = created(store.putIfAbsent(key("c"), bytes("v1")));
    CasResult result = store.compareAndSwap(key("c"), first, bytes("v2"));
    assertThat(result).isInstanceOf(CasResult.Swapped.class);
    VersionToken second = ((CasResult.Swapped) result).token();
    assertThat(second).isNotEqualTo(first);
    StoredObject now = store.get(key("c"));
    assertThat(now.bytes()).isEqualTo(bytes("v2"));
    assertThat(now.token()).isEqualTo(second);
  }

  @Test
  void compareAndSwapWithAStaleTokenFailsAndReturnsTheCurrentObject() {
    VersionToken first = created(store.putIfAbsent(key("c"), bytes("v1")));
    VersionToken second = ((CasResult.Swapped) store.compareAndSwap(key("c"), first, bytes("v2"))).token();
    CasResult result = store.compareAndSwap(key("c"), first, bytes("v3"));
    assertThat(result).isInstanceOf(CasResult.Conflict.class);
    StoredObject current = ((CasResult.Conflict) result).current();
    assertThat(current).isNotNull();
    assertThat(current.bytes()).isEqualTo(bytes("v2"));
    assertThat(current.token()).isEqualTo(second);
    assertThat(store.get(key("c")).bytes()).isEqualTo(bytes("v2"));
  }

  @Test
  void compareAndSwapWithAbsentTokenIsCreateOnly() {
    CasResult create = store.compareAndSwap(key("n"), VersionToken.ABSENT, bytes("new"));
    assertThat(create).isInstanceOf(CasResult.Swapped.class);
    assertThat(store.get(key("n")).token()).isEqualTo(((CasResult.Swapped) create).token());
    CasResult again = store.compareAndSwap(key("n"), VersionToken.ABSENT, bytes("newer"));
    assertThat(again).isInstanceOf(CasResult.Conflict.class);
    StoredObject current = ((CasResult.Conflict) again).current();
    assertThat(current).isNotNull();
    assertThat(current.bytes()).isEqualTo(bytes("new"));
  }

  @Test
  void compareAndSwapOfAMissingKeyWithATokenConflictsWithNoCurrentObject() {
    VersionToken token = created(store.putIfAbsent(key("gone"), bytes("x")));
    store.delete(List.of(key("gone")));
    CasResult result = store.compareAndSwap(key("gone"), token, bytes("y"));
    assertThat(result).isInstanceOf(CasResult.Conflict.class);
    assertThat(((CasResult.Conflict) result).current()).isNull();
    assertThat(store.head(key("gone"))).isEmpty();
  }

  // --- conditional get ---------------------------------------------------------------------

  @Test
  void conditionalGetTransfersNothingWhileTheTokenIsUnchanged() {
    VersionToken token = created(store.putIfAbsent(key("poll"), bytes("v1")));
    assertThat(store.getIfChanged(key("poll"), token)).isInstanceOf(ConditionalGetResult.Unchanged.class);
    VersionToken next = ((CasResult.Swapped) store.compareAndSwap(key("poll"), token, bytes("v2"))).token();
    ConditionalGetResult changed = store.getIfChanged(key("poll"), token);
    assertThat(changed).isInstanceOf(ConditionalGetResult.Changed.class);
    StoredObject object = ((ConditionalGetResult.Changed) changed).object();
    assertThat(object.bytes()).isEqualTo(bytes("v2"));
    assertThat(object.token()).isEqualTo(next);
    assertThat(store.getIfChanged(key("poll"), next)).isInstanceOf(ConditionalGetResult.Unchanged.class);
  }

  @Test
  void conditionalGetWithAbsentTokenReadsAndReportsMissingKeys() {
    assertThat(store.getIfChanged(key("none"), VersionToken.ABSENT))
        .isInstanceOf(ConditionalGetResult.Missing.class);
    VersionToken token = created(store.putIfAbsent(key("x"), bytes("x")));
    assertThat(store.getIfChanged(key("x"), VersionToken.ABSENT))
        .isInstanceOf(ConditionalGetResult.Changed.class);
    store.delete(List.of(key("x")));
    assertThat(store.getIfChanged(key("x"), token)).isInstanceOf(ConditionalGetResult.Missing.class);
  }

  // --- streaming upload --------------------------------------------------------------------

  @Test
  void uploadIsInvisibleUntilCompleteAndThenHoldsEveryByte() {
    byte[] body = new byte[largeUploadSize()];
    new Random(42).nextBytes(body);
    try (ObjectUpload upload = store.startUpload(key("up"))) {
      assertThat(upload.key()).isEqualTo(key("up"));
      int pos = 0;
      int chunk = 1;
      while (pos < body.length) {
        int n = Math.min(chunk, body.length - pos);
        upload.write(body, pos, n);
        pos += n;
        chunk = Math.min(chunk * 3 + 1, 700_001);
      }
      assertThat(upload.bytesWritten()).isEqualTo(body.length);
      assertThat(store.head(key("up"))).isEmpty();
      assertThat(store.list(key("up"), 10).entries()).isEmpty();
      CreateResult result = upload.complete();
      VersionToken token = created(result);
      assertThat(store.head(key("up")).orElseThrow().token()).isEqualTo(token);
    }
    assertThat(store.get(key("up")).bytes()).isEqualTo(body);
    assertThat(store.head(key("up")).orElseThrow().size()).isEqualTo(body.length);
  }

  @Test
  void smallUploadCompletesCreateOnly() {
    try (ObjectUpload upload = store.startUpload(key("small"))) {
      upload.write(bytes("tiny"));
      created(upload.complete());
    }
    assertThat(store.get(key("small")).bytes()).isEqualTo(bytes("tiny"));
  }

  @Test
  void uploadToAnExistingKeyReportsAlreadyExistsAndKeepsTheOriginal() {
    created(store.putIfAbsent(key("taken"), bytes("original")));
    for (int size : new int[] {5, largeUploadSize()}) {
      byte[] body = new byte[size];
      new Random(size).nextBytes(body);
      try (ObjectUpload upload = store.startUpload(key("taken"))) {
        upload.write(body);
        assertThat(upload.complete()).isInstanceOf(CreateResult.AlreadyExists.class);
      }
      assertThat(store.get(key("taken")).bytes()).isEqualTo(bytes("original"));
    }
  }

  @Test
  void abortedUploadLeavesNoObject() {
    byte[] body = new byte[largeUploadSize()];
    try (ObjectUpload upload = store.startUpload(key("aborted"))) {
      upload.write(body);
      upload.abort();
      upload.abort();
    }
    assertThat(store.head(key("aborted"))).isEmpty();
    try (ObjectUpload upload = store.startUpload(key("closed"))) {
      upload.write(bytes("never completed"));
    }
    assertThat(store.head(key("closed"))).isEmpty();
    assertThat(store.list(prefix, 100).entries()).isEmpty();
  }

  // --- listing -----------------------------------------------------------------------------

  @Test
  void listingIsByteOrderedFilteredByPrefixAndPagedAfterAKey() {
    List<String> names = List.of("b/2", "a", "b/1", "b/10", "b/1/x", "c", "B", "b-", "b0");
    for (String name : names) {
      created(store.putIfAbsent(key(name), bytes(name)));
    }
    created(store.putIfAbsent("contract-outside/" + UUID.randomUUID(), bytes("elsewhere")));

    List<String> expected = names.stream().map(this::key).sorted().toList();
    assertThat(listAll(prefix, 2)).isEqualTo(expected);
    assertThat(listAll(prefix, 1000)).isEqualTo(expected);

    assertThat(listAll(key("b/"), 2)).containsExactly(key("b/1"), key("b/1/x"), key("b/10"), key("b/2"));

    ListPage after = store.list(prefix, key("b/1"), 2);
    assertThat(after.entries()).extracting(ObjectMetadata::key).containsExactly(key("b/1/x"), key("b/10"));
    assertThat(after.hasMore()).isTrue();

    ListPage afterAbsentKey = store.list(prefix, key("b/0"), 1);
    assertThat(afterAbsentKey.entries()).extracting(ObjectMetadata::key).containsExactly(key("b/1"));

    ListPage tail = store.list(prefix, key("c"), 10);
    assertThat(tail.entries()).isEmpty();
    assertThat(tail.hasMore()).isFalse();
  }

  @Test
  void listedEntriesCarrySizeTokenAndTime() {
    VersionToken token = created(store.putIfAbsent(key("m"), bytes("12345")));
    ListPage page = store.list(prefix, 10);
    assertThat(page.entries()).hasSize(1);
    ObjectMetadata entry = page.entries().get(0);
    assertThat(entry.key()).isEqualTo(key("m"));
    assertThat(entry.size()).isEqualTo(5);
    assertThat(entry.token()).isEqualTo(token);
    assertThat(entry.lastModified()).isAfter(java.time.Instant.parse("2020-01-01T00:00:00Z"));
    assertThat(page.hasMore()).isFalse();
  }

  private List<String> listAll(String listPrefix, int pageSize) {
    List<String> keys = new ArrayList<>();
    String after = "";
    for (int pages = 0; pages < 1000; pages++) {
      ListPage page = store.list(listPrefix, after, pageSize);
      assertThat(page.entries().size()).isLessThanOrEqualTo(pageSize);
      page.entries().forEach(e -> keys.add(e.key()));
      if (!page.hasMore()) {
        return keys;
      }
      after = page.nextAfterKey();
    }
    throw new AssertionError("listing did not end");
  }

  // --- delete ------------------------------------------------------------------------------

  @Test
  void deleteRemovesManyKeysAndTreatsMissingOnesAsDeleted() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      keys.add(key(String.format("d/%03d", i)));
      created(store.putIfAbsent(keys.get(i), bytes("x" + i)));
    }
    List<String> doomed = new ArrayList<>(keys.subList(0, 20));
    doomed.add(key("d/never-existed"));
    store.delete(doomed);
    assertThat(listAll(key("d/"), 100)).containsExactlyElementsOf(keys.subList(20, 25));
    store.delete(doomed);
    store.delete(List.of());
    created(store.putIfAbsent(keys.get(0), bytes("again")));
    assertThat(store.get(keys.get(0)).bytes()).isEqualTo(bytes("again"));
  }

  // --- races -------------------------------------------------------------------------------

  @Test
  void racingCreateOnlyWritesHaveExactlyOneWinner() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    try {
      for (int round = 0; round < RACE_ROUNDS; round++) {
        String raced = key("race-create-" + round);
        List<Future<CreateResult>> results = race(pool, i -> store.putIfAbsent(raced, bytes("writer " + i)));
        int winners = 0;
        int winner = -1;
        for (int i = 0; i < results.size(); i++) {
          if (results.get(i).get().created()) {
            winners++;
            winner = i;
          }
        }
        assertThat(winners).as("winners of create-only round %d", round).isEqualTo(1);
        assertThat(store.get(raced).bytes()).isEqualTo(bytes("writer " + winner));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void racingCompareAndSwapsWithOneTokenHaveExactlyOneWinner() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    try {
      String raced = key("race-cas");
      VersionToken token = created(store.putIfAbsent(raced, bytes("start")));
      for (int round = 0; round < RACE_ROUNDS; round++) {
        VersionToken expected = token;
        int r = round;
        List<Future<CasResult>> results =
            race(pool, i -> store.compareAndSwap(raced, expected, bytes("round " + r + " writer " + i)));
        int winners = 0;
        int winner = -1;
        for (int i = 0; i < results.size(); i++) {
          CasResult result = results.get(i).get();
          if (result instanceof CasResult.Swapped swapped) {
            winners++;
            winner = i;
            token = swapped.token();
          }
        }
        assertThat(winners).as("winners of compare-and-swap round %d", round).isEqualTo(1);
        StoredObject now = store.get(raced);
        assertThat(now.bytes()).isEqualTo(bytes("round " + r + " writer " + winner));
        assertThat(now.token()).isEqualTo(token);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private interface Racer<T> {
    T run(int index) throws Exception;
  }

  private static <T> List<Future<T>> race(ExecutorService pool, Racer<T> racer) throws Exception {
    CountDownLatch ready = new CountDownLatch(RACERS);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<T>> futures = new ArrayList<>();
    for (int i = 0; i < RACERS; i++) {
      int index = i;
      futures.add(
          pool.submit(
              () -> {
                ready.countDown();
                go.await();
                return racer.run(index);
              }));
    }
    assertThat(ready.await(30, TimeUnit.SECONDS)).isTrue();
    go.countDown();
    for (Future<T> f : futures) {
      f.get(60, TimeUnit.SECONDS);
    }
    return futures;
  }

  // --- self-test ---------------------------------------------------------------------------

  @Test
  void selfTestAcceptsThisStoreAndCleansUp() {
    store.verifyConditionalWrites(prefix + "probe");
    assertThat(store.list(prefix, 10).entries()).isEmpty();
  }
}
