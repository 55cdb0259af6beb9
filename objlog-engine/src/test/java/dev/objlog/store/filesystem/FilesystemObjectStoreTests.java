package dev.objlog.store.filesystem;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.CasResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.StoredObject;
import dev.objlog.store.VersionToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FilesystemObjectStoreTests {

  @TempDir Path root;
  private FilesystemObjectStore store;

  @BeforeEach
  void open() {
    store = FilesystemObjectStore.open(root);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(UTF_8);
  }

  private static VersionToken created(CreateResult result) {
    assertThat(result).isInstanceOf(CreateResult.Created.class);
    return ((CreateResult.Created) result).token();
  }

  private List<String> listAll() {
    return store.list("", 1000).entries().stream().map(ObjectMetadata::key).toList();
  }

  // --- keys --------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", "/abs", "a//b", "a/", "./a", "a/./b", "a/../b", "..", "a\\b", "a\0b", ".objlog/x", ".objlog",
        "a.tmp", "a/b.tmp", "a.tmp/b"
      })
  void malformedKeysAreRefusedWithAMessageNamingTheRule(String key) {
    assertThatThrownBy(() -> store.putIfAbsent(key, bytes("x")))
        .isInstanceOf(PermanentStoreException.class)
        .hasMessageContaining("cannot hold the key");
    assertThatThrownBy(() -> store.get(key)).isInstanceOf(PermanentStoreException.class);
    assertThatThrownBy(() -> store.compareAndSwap(key, VersionToken.ABSENT, bytes("x")))
        .isInstanceOf(PermanentStoreException.class);
    assertThatThrownBy(() -> store.startUpload(key)).isInstanceOf(PermanentStoreException.class);
    assertThatThrownBy(() -> store.delete(List.of(key))).isInstanceOf(PermanentStoreException.class);
  }

  @Test
  void objectKeyIsTheFileUnderTheRootAndNonAsciiKeysWork() throws IOException {
    String key = "dir/sub/\u00E9t\u00E9-\uD83D\uDE00.bin";
    created(store.putIfAbsent(key, bytes("hello")));
    assertThat(Files.readAllBytes(root.resolve(key))).isEqualTo(bytes("hello"));
    assertThat(listAll()).containsExactly(key);
  }

  // --- file/folder clash -------------------------------------------------------------------

  @Test
  void writingUnderAnObjectIsRefusedCleanly() {
    created(store.putIfAbsent("a", bytes("object a")));
    assertThatThrownBy(() -> store.putIfAbsent("a/b", bytes("x")))
        .isInstanceOf(PermanentStoreException.class)
        .hasMessageContaining("'a' is an object");
    assertThatThrownBy(() -> store.compareAndSwap("a/b/c", VersionToken.ABSENT, bytes("x")))
        .isInstanceOf(PermanentStoreException.class);
    try (ObjectUpload upload = store.startUpload("a/b")) {
      upload.write(bytes("x"));
      assertThatThrownBy(upload::complete).isInstanceOf(PermanentStoreException.class);
    }
    assertThat(store.get("a").bytes()).isEqualTo(bytes("object a"));
    assertThat(store.head("a/b")).isEmpty();
    assertThat(listAll()).containsExactly("a");
  }

  @Test
  void writingAnObjectWhereAFolderIsIsRefusedCleanly() {
    created(store.putIfAbsent("a/b", bytes("object a/b")));
    assertThatThrownBy(() -> store.putIfAbsent("a", bytes("x")))
        .isInstanceOf(PermanentStoreException.class)
        .hasMessageContaining("objects exist under 'a/'");
    assertThatThrownBy(() -> store.compareAndSwap("a", VersionToken.ABSENT, bytes("x")))
        .isInstanceOf(PermanentStoreException.class);
    assertThat(store.head("a")).isEmpty();
    assertThat(store.compareAndSwap("a", VersionToken.of("1"), bytes("x"))).isInstanceOf(CasResult.Conflict.class);
    assertThat(store.get("a/b").bytes()).isEqualTo(bytes("object a/b"));
    assertThat(listAll()).containsExactly("a/b");
    // Once the folder is gone, the key is free.
    store.delete(List.of("a/b"));
    assertThat(Files.exists(root.resolve("a"))).isFalse();
    created(store.putIfAbsent("a", bytes("now an object")));
  }

  @Test
  void deleteRemovesEmptyParentFoldersButNotTheRootOrNonEmptyOnes() {
    created(store.putIfAbsent("x/y/z/1", bytes("1")));
    created(store.putIfAbsent("x/keep", bytes("k")));
    store.delete(List.of("x/y/z/1"));
    assertThat(Files.exists(root.resolve("x/y"))).isFalse();
    assertThat(Files.isDirectory(root.resolve("x"))).isTrue();
    store.delete(List.of("x/keep"));
    assertThat(Files.exists(root.resolve("x"))).isFalse();
    assertThat(Files.isDirectory(root)).isTrue();
  }

  @Test
  void symbolicLinksUnderTheRootAreNeverFollowed(@TempDir Path outside) throws IOException {
    Files.writeString(outside.resolve("secret"), "outside");
    try {
      Files.createSymbolicLink(root.resolve("link"), outside);
      Files.createSymbolicLink(root.resolve("filelink"), outside.resolve("secret"));
    } catch (UnsupportedOperationException | IOException e) {
      org.junit.jupiter.api.Assumptions.abort("symbolic links unsupported here: " + e);
    }
    assertThatThrownBy(() -> store.get("link/secret")).isInstanceOf(PermanentStoreException.class);
    assertThatThrownBy(() -> store.putIfAbsent("link/new", bytes("x")))
        .isInstanceOf(PermanentStoreException.class);
    assertThatThrownBy(() -> store.get("filelink")).isInstanceOf(PermanentStoreException.class);
    assertThat(Files.exists(outside.resolve("new"))).isFalse();
    assertThat(listAll()).isEmpty();
  }

  // --- temporary files and crashes ---------------------------------------------------------

  @Test
  void temporaryAndUploadFilesAreNeverVisible() throws IOException {
    ObjectUpload upload = store.startUpload("up");
    upload.write(bytes("partial"));
    try (Stream<Path> staged = Files.list(root.resolve(".objlog/uploads"))) {
      assertThat(staged.toList()).singleElement().satisfies(p -> assertThat(p.toString()).endsWith(".tmp"));
    }
    Files.writeString(root.resolve("stray.tmp"), "debris");
    Files.createDirectories(root.resolve("d"));
    Files.writeString(root.resolve("d/x.tmp"), "debris");
    assertThat(listAll()).isEmpty();
    assertThat(store.head("up")).isEmpty();
    upload.abort();
    try (Stream<Path> staged = Files.list(root.resolve(".objlog/uploads"))) {
      assertThat(staged.toList()).isEmpty();
    }
  }

  @Test
  void crashLeftoversAreIgnoredAndStaleOnesCleanedOnOpen() throws IOException {
    VersionToken token = created(store.putIfAbsent("k", bytes("committed")));
    Path fresh = root.resolve(".objlog/tmp/" + "fresh.tmp");
    Path stale = root.resolve(".objlog/tmp/" + "stale.tmp");
    Path staleUpload = root.resolve(".objlog/uploads/" + "old-upload.tmp");
    for (Path p : List.of(fresh, stale, staleUpload)) {
      Files.writeString(p, "half written");
    }
    FileTime twoHoursAgo = FileTime.from(Instant.now().minus(Duration.ofHours(2)));
    Files.setLastModifiedTime(stale, twoHoursAgo);
    Files.setLastModifiedTime(staleUpload, twoHoursAgo);
    store.close();

    store = FilesystemObjectStore.open(root);
    assertThat(Files.exists(stale)).isFalse();
    assertThat(Files.exists(staleUpload)).isFalse();
    assertThat(Files.exists(fresh)).as("young temporaries may belong to a live writer").isTrue();
    assertThat(listAll()).containsExactly("k");
    assertThat(store.get("k").token()).isEqualTo(token);
  }

  @Test
  void tornSidecarIsRepairedWithAFreshTokenThatMatchesTheBytes() throws IOException {
    VersionToken token = created(store.putIfAbsent("k", bytes("v1")));
    Path sidecar = store.sidecarPath("k");
    byte[] whole = Files.readAllBytes(sidecar);
    Files.write(sidecar, java.util.Arrays.copyOf(whole, whole.length / 2));

    ObjectMetadata head = store.head("k").orElseThrow();
    assertThat(head.token()).isNotEqualTo(token);
    assertThat(head.size()).isEqualTo(2);
    StoredObject read = store.get("k");
    assertThat(read.bytes()).isEqualTo(bytes("v1"));
    assertThat(read.token()).isEqualTo(head.token());
    assertThat(store.list("", 10).entries().get(0).token()).isEqualTo(head.token());
    assertThat(store.compareAndSwap("k", token, bytes("stale writer"))).isInstanceOf(CasResult.Conflict.class);
    assertThat(store.compareAndSwap("k", head.token(), bytes("v2")).swapped()).isTrue();
  }

  @Test
  void crashBetweenObjectRenameAndSidecarGivesTheNewBytesAFreshToken() throws IOException {
    VersionToken old = created(store.putIfAbsent("k", bytes("old bytes")));
    // What a crash after the object's rename and before the sidecar's leaves behind.
    Path temp = root.resolve(".objlog/tmp/replacement.tmp");
    Files.writeString(temp, "new bytes!");
    Files.move(temp, root.resolve("k"), StandardCopyOption.ATOMIC_MOVE);

    StoredObject read = store.get("k");
    assertThat(read.bytes()).isEqualTo(bytes("new bytes!"));
    assertThat(read.token()).isNotEqualTo(old);
    assertThat(read.metadata().size()).isEqualTo(10);
    assertThat(store.compareAndSwap("k", old, bytes("x"))).isInstanceOf(CasResult.Conflict.class);
    assertThat(store.head("k").orElseThrow().token()).isEqualTo(read.token());
  }

  @Test
  void sidecarOfAMissingObjectAndObjectsWithoutSidecarsAreHandled() throws IOException {
    VersionToken token = created(store.putIfAbsent("gone", bytes("x")));
    Path sidecar = store.sidecarPath("gone");
    Files.delete(root.resolve("gone"));
    assertThat(Files.exists(sidecar)).isTrue();
    assertThat(store.head("gone")).isEmpty();
    assertThat(store.compareAndSwap("gone", token, bytes("y"))).isInstanceOf(CasResult.Conflict.class);
    assertThat(Files.exists(sidecar)).as("a stale sidecar is removed when seen").isFalse();
    VersionToken again = created(store.putIfAbsent("gone", bytes("x")));
    assertThat(again).isNotEqualTo(token);

    Files.createDirectories(root.resolve("hand"));
    Files.writeString(root.resolve("hand/copied"), "copied in by hand");
    ObjectMetadata head = store.head("hand/copied").orElseThrow();
    assertThat(store.get("hand/copied").token()).isEqualTo(head.token());
    assertThat(store.compareAndSwap("hand/copied", head.token(), bytes("replaced")).swapped()).isTrue();
  }

  @Test
  void tokensAreGenerationsThatNeverRepeatAcrossInstancesAndRecreation() {
    VersionToken first = created(store.putIfAbsent("k", bytes("x")));
    store.delete(List.of("k"));
    try (FilesystemObjectStore other = FilesystemObjectStore.open(root)) {
      VersionToken second = created(other.putIfAbsent("k", bytes("x")));
      assertThat(second).isNotEqualTo(first);
      assertThat(Long.parseLong(second.value())).isGreaterThan(0);
      assertThat(store.head("k").orElseThrow().token()).isEqualTo(second);
    }
  }

  @Test
  void lastModifiedComesFromTheInjectedClock() {
    Instant at = Instant.parse("2030-05-06T07:08:09Z");
    try (FilesystemObjectStore clocked =
        FilesystemObjectStore.builder(root).clock(java.time.Clock.fixed(at, java.time.ZoneOffset.UTC)).build()) {
      clocked.putIfAbsent("t", bytes("x"));
      assertThat(clocked.head("t").orElseThrow().lastModified()).isEqualTo(at);
    }
  }

  @Test
  void closedStoreRefusesRequests() {
    store.close();
    assertThatThrownBy(() -> store.head("k")).isInstanceOf(PermanentStoreException.class).hasMessageContaining("closed");
  }
}
