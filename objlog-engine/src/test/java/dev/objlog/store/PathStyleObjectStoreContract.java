package dev.objlog.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link ObjectStoreContract} for stores whose keys are paths, where an object and a folder cannot
 * share one path (the filesystem store refuses {@code b/1} while {@code b/1/x} exists, and the
 * other way round). Only the listing case that stores both {@code b/1} and {@code b/1/x} is
 * replaced, by one that proves the same ordering rules with clash-free keys: a folder {@code d}
 * sorts as {@code "d/"}, between {@code "d-"} and {@code "d0"}, and paging after a key skips into
 * and out of folders. Every other contract case runs unchanged.
 */
public abstract class PathStyleObjectStoreContract extends ObjectStoreContract {

  @Override
  @Test
  void listingIsByteOrderedFilteredByPrefixAndPagedAfterAKey() {
    List<String> names = List.of("b/2", "a", "b/1-", "b/1/x", "b/10", "c", "B", "b-", "b0", "b/1/y/z");
    for (String name : names) {
      assertThat(store.putIfAbsent(key(name), bytes(name)).created()).isTrue();
    }
    assertThat(store.putIfAbsent("contract-outside/" + UUID.randomUUID(), bytes("elsewhere")).created()).isTrue();

    List<String> expected = names.stream().map(this::key).sorted().toList();
    assertThat(expected)
        .containsExactly(
            key("B"), key("a"), key("b-"), key("b/1-"), key("b/1/x"), key("b/1/y/z"), key("b/10"),
            key("b/2"), key("b0"), key("c"));
    assertThat(listAll(prefix, 2)).isEqualTo(expected);
    assertThat(listAll(prefix, 1000)).isEqualTo(expected);
    assertThat(listAll(key("b/"), 2))
        .containsExactly(key("b/1-"), key("b/1/x"), key("b/1/y/z"), key("b/10"), key("b/2"));
    assertThat(listAll(key("b/1"), 1))
        .containsExactly(key("b/1-"), key("b/1/x"), key("b/1/y/z"), key("b/10"));

    ListPage after = store.list(prefix, key("b/1-"), 2);
    assertThat(after.entries()).extracting(ObjectMetadata::key).containsExactly(key("b/1/x"), key("b/1/y/z"));
    assertThat(after.hasMore()).isTrue();

    ListPage intoFolder = store.list(prefix, key("b/1/x"), 2);
    assertThat(intoFolder.entries()).extracting(ObjectMetadata::key).containsExactly(key("b/1/y/z"), key("b/10"));

    ListPage afterFolderName = store.list(prefix, key("b/1"), 1);
    assertThat(afterFolderName.entries()).extracting(ObjectMetadata::key).containsExactly(key("b/1-"));

    ListPage afterAbsentKey = store.list(prefix, key("b/0"), 1);
    assertThat(afterAbsentKey.entries()).extracting(ObjectMetadata::key).containsExactly(key("b/1-"));

    ListPage tail = store.list(prefix, key("c"), 10);
    assertThat(tail.entries()).isEmpty();
    assertThat(tail.hasMore()).isFalse();
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
}
