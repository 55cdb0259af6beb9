package dev.objlog.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.ObjlogException;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.VersionToken;
import dev.objlog.store.filesystem.FilesystemObjectStore;
import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.filesystem.FilesystemStoreAccess;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Security (issue #9): the filesystem store never writes (or deletes) outside its root, whatever
 * the key: traversal segments, absolute paths, backslashes, NULs, or symbolic links planted inside
 * the root that point outside. Every refusal is a typed {@link ObjlogException}. Issue #13: reads
 * through links too, and a link swapped in between the store's check and its open (the swap runs
 * from the store's access hook, so the race happens on every run, with no sleeps).
 */
class FilesystemRootConfinementTests {
  @TempDir Path dir;

  private static final List<String> HOSTILE_KEYS = List.of("../escape", "a/../../escape", "/abs/escape",
      "a\\..\\..\\escape", "a/./b", "./escape", "..", "a//b", "nul\u0000../escape", ".objlog/locks/x",
      "x.tmp", "a/b.tmp/c", "");

  @Test
  void hostileKeysAreRefusedWithTypedErrorsAndNothingLandsOutsideTheRoot() throws Exception {
    Path root = dir.resolve("root");
    Path outside = dir.resolve("outside");
    Files.createDirectories(outside);
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      store.putIfAbsent("ok", "v".getBytes(UTF_8));
      VersionToken token = store.head("ok").orElseThrow().token();
      List<String> accepted = new ArrayList<>();
      for (String key : HOSTILE_KEYS) {
        List<HostileInputTests.Action> ops = List.of(
            () -> store.putIfAbsent(key, "x".getBytes(UTF_8)),
            () -> store.compareAndSwap(key, token, "x".getBytes(UTF_8)),
            () -> {
              try (ObjectUpload up = store.startUpload(key)) {
                up.write("x".getBytes(UTF_8));
                up.complete();
              }
            },
            () -> store.get(key),
            () -> store.head(key),
            () -> store.delete(List.of(key)));
        for (int i = 0; i < ops.size(); i++) {
          Throwable t = HostileInputTests.catching(ops.get(i));
          if (t == null) {
            accepted.add(HostileInputTests.printable(key) + " op#" + i);
          } else {
            assertThat(t).as("%s op#%d", HostileInputTests.printable(key), i).isInstanceOf(ObjlogException.class);
          }
        }
      }
      assertThat(accepted).as("hostile keys accepted").isEmpty();
    }
    assertThat(listTree(outside)).isEmpty();
    assertThat(listTree(dir)).allMatch(p -> p.startsWith(root) || p.startsWith(outside) || p.equals(root)
        || p.equals(outside));
  }

  @Test
  void symbolicLinksInsideTheRootAreNeverFollowed() throws Exception {
    Path root = dir.resolve("root");
    Path outside = dir.resolve("outside");
    Files.createDirectories(outside);
    Path victim = Files.writeString(outside.resolve("victim"), "precious");
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      Files.createSymbolicLink(root.resolve("linkdir"), outside);
      Files.createSymbolicLink(root.resolve("linkfile"), victim);
      store.putIfAbsent("real/x", "v".getBytes(UTF_8));
      VersionToken token = store.head("real/x").orElseThrow().token();
      List<String> accepted = new ArrayList<>();
      for (String key : List.of("linkdir/new", "linkdir/victim", "linkfile", "linkdir/sub/deeper")) {
        List<HostileInputTests.Action> ops = List.of(
            () -> store.putIfAbsent(key, "x".getBytes(UTF_8)),
            () -> store.compareAndSwap(key, token, "x".getBytes(UTF_8)),
            () -> {
              try (ObjectUpload up = store.startUpload(key)) {
                up.write("x".getBytes(UTF_8));
                up.complete();
              }
            },
            () -> store.delete(List.of(key)));
        for (int i = 0; i < ops.size(); i++) {
          Throwable t = HostileInputTests.catching(ops.get(i));
          if (t == null) {
            accepted.add(key + " op#" + i);
          } else {
            assertThat(t).as("%s op#%d", key, i).isInstanceOf(ObjlogException.class);
          }
        }
      }
      // A compare-and-swap on a missing key answers "not swapped"; a delete may succeed (missing is success, or it removes the link itself); the victim check below
      // proves it never reached outside.
      accepted.removeIf(s -> s.endsWith("op#3") || s.endsWith("op#1"));
      assertThat(accepted).as("writes through links accepted").isEmpty();
      // Listing never descends into the linked folder either.
      assertThat(dev.objlog.reliability.Keys.snapshot(store, "").keySet()).containsExactly("real/x");
    }
    assertThat(Files.readString(victim)).isEqualTo("precious");
    assertThat(listTree(outside)).containsExactly(victim);
  }

  @Test
  void readsThroughPlantedLinksAreRefusedWithTypedErrors() throws Exception {
    Path root = dir.resolve("root");
    Path outside = dir.resolve("outside");
    Files.createDirectories(outside);
    Files.writeString(outside.resolve("victim"), "precious");
    try (FilesystemObjectStore store = FilesystemObjectStore.open(root)) {
      Files.createSymbolicLink(root.resolve("linkdir"), outside);
      Files.createSymbolicLink(root.resolve("linkfile"), outside.resolve("victim"));
      for (String key : List.of("linkdir/victim", "linkfile")) {
        for (Map.Entry<String, HostileInputTests.Action> op : readOperations(store, key).entrySet()) {
          Throwable t = HostileInputTests.catching(op.getValue());
          assertThat(t).as("%s of %s through a planted link", op.getKey(), key)
              .isInstanceOf(PermanentStoreException.class)
              .hasMessageContaining("symbolic link");
        }
      }
    }
  }

  /** Where the link is swapped in, at the moment the store looks the key up again. */
  enum Swap {
    /** The object's file itself becomes a link to a file outside the root. */
    FILE,
    /** The object's folder becomes a link to a folder outside the root holding the same name. */
    FOLDER
  }

  /**
   * The store checks a key (its attributes) and then opens it: a link swapped in between must be
   * refused by the open itself. The hook runs right before the store's lookup for the open, so the
   * check has passed on the real file and the swap happens every run.
   */
  @ParameterizedTest
  @EnumSource(Swap.class)
  void aLinkSwappedInBetweenCheckAndOpenIsRefused(Swap swap) throws Exception {
    Path root = dir.resolve("root");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("obj"), "outside bytes");
    Map<String, String> refusedOps = new TreeMap<>();
    for (String op : List.of("get", "getRange", "getIfChanged", "compareAndSwap conflict")) {
      AtomicReference<String> armed = new AtomicReference<>();
      AtomicInteger swaps = new AtomicInteger();
      try (FilesystemObjectStore store = FilesystemStoreAccess.openWithAccessHook(root, (what, key) -> {
        if (what.equals("open") && key.equals(armed.get())) {
          armed.set(null);
          swapIn(swap, root, outside);
          swaps.incrementAndGet();
        }
      })) {
        store.delete(List.of("a/obj"));
        restore(root);
        store.putIfAbsent("a/obj", "inside bytes".getBytes(UTF_8));
        VersionToken stale = VersionToken.of("1");
        HostileInputTests.Action action = switch (op) {
          case "get" -> () -> store.get("a/obj");
          case "getRange" -> () -> store.getRange("a/obj", 0, 100);
          case "getIfChanged" -> () -> store.getIfChanged("a/obj", VersionToken.ABSENT);
          default -> () -> store.compareAndSwap("a/obj", stale, "new".getBytes(UTF_8));
        };
        armed.set("a/obj");
        Throwable t = HostileInputTests.catching(action);
        assertThat(swaps).as("%s: the link was swapped in between check and open", op).hasValue(1);
        assertThat(t).as("%s after the %s was swapped for a link", op, swap)
            .isInstanceOf(PermanentStoreException.class)
            .hasMessageContaining("symbolic link");
        refusedOps.put(op, t.getMessage());
      }
      restore(root);
    }
    assertThat(refusedOps).hasSize(4);
    assertThat(Files.readString(outside.resolve("obj"))).isEqualTo("outside bytes");
  }

  /**
   * The same race for writes and deletes: a folder swapped for a link right before the rename that
   * publishes an object, or right before the unlink of a delete, must not let either act outside.
   */
  @Test
  void aFolderSwappedForALinkBeforeRenameOrDeleteIsNeverFollowed() throws Exception {
    Path root = dir.resolve("root");
    Path outside = Files.createDirectories(dir.resolve("outside"));
    Files.writeString(outside.resolve("obj"), "outside bytes");
    AtomicReference<String> armedOp = new AtomicReference<>();
    AtomicInteger swaps = new AtomicInteger();
    try (FilesystemObjectStore store = FilesystemStoreAccess.openWithAccessHook(root, (what, key) -> {
      if (what.equals(armedOp.get()) && key.startsWith("a/")) {
        armedOp.set(null);
        swapIn(Swap.FOLDER, root, outside);
        swaps.incrementAndGet();
      }
    })) {
      store.putIfAbsent("a/obj", "inside bytes".getBytes(UTF_8));
      store.putIfAbsent("a/other", "x".getBytes(UTF_8));

      armedOp.set("rename");
      Throwable put = HostileInputTests.catching(() -> store.putIfAbsent("a/new", "planted".getBytes(UTF_8)));
      assertThat(swaps).hasValue(1);
      assertThat(put).as("put after the folder became a link").isInstanceOf(PermanentStoreException.class)
          .hasMessageContaining("symbolic link");
      assertThat(outside.resolve("new")).as("the put landed outside the root").doesNotExist();
      restore(root);

      armedOp.set("rename");
      Throwable upload = HostileInputTests.catching(() -> {
        try (ObjectUpload up = store.startUpload("a/new")) {
          up.write("planted".getBytes(UTF_8));
          up.complete();
        }
      });
      assertThat(swaps).hasValue(2);
      assertThat(upload).as("upload after the folder became a link").isInstanceOf(PermanentStoreException.class);
      assertThat(outside.resolve("new")).as("the upload landed outside the root").doesNotExist();
      restore(root);

      armedOp.set("delete");
      Throwable delete = HostileInputTests.catching(() -> store.delete(List.of("a/obj")));
      assertThat(swaps).hasValue(3);
      assertThat(delete).as("delete after the folder became a link").isInstanceOf(PermanentStoreException.class);
      restore(root);
      assertThat(store.get("a/obj").bytes()).asString(UTF_8).isEqualTo("inside bytes");
    }
    assertThat(Files.readString(outside.resolve("obj"))).isEqualTo("outside bytes");
    assertThat(listTree(outside)).containsExactly(outside.resolve("obj"));
  }

  private static void swapIn(Swap swap, Path root, Path outside) {
    try {
      if (swap == Swap.FILE) {
        Files.move(root.resolve("a/obj"), root.resolve("obj.moved"));
        Files.createSymbolicLink(root.resolve("a/obj"), outside.resolve("obj"));
      } else {
        Files.move(root.resolve("a"), root.resolve("a.moved"));
        Files.createSymbolicLink(root.resolve("a"), outside);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Undoes {@link #swapIn}: the real file or folder goes back where it was. */
  private static void restore(Path root) throws Exception {
    if (Files.exists(root.resolve("obj.moved"), LinkOption.NOFOLLOW_LINKS)) {
      Files.delete(root.resolve("a/obj"));
      Files.move(root.resolve("obj.moved"), root.resolve("a/obj"));
    }
    if (Files.exists(root.resolve("a.moved"), LinkOption.NOFOLLOW_LINKS)) {
      Files.delete(root.resolve("a"));
      Files.move(root.resolve("a.moved"), root.resolve("a"));
    }
  }

  private static Map<String, HostileInputTests.Action> readOperations(FilesystemObjectStore store, String key) {
    Map<String, HostileInputTests.Action> ops = new LinkedHashMap<>();
    ops.put("get", () -> store.get(key));
    ops.put("head", () -> store.head(key));
    ops.put("getRange", () -> store.getRange(key, 0, 10));
    ops.put("getIfChanged", () -> store.getIfChanged(key, VersionToken.ABSENT));
    return ops;
  }

  private static List<Path> listTree(Path p) throws Exception {
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(x -> !x.equals(p)).toList();
    }
  }
}
