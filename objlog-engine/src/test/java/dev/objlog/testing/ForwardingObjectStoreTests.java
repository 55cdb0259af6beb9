package dev.objlog.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.store.CasResult;
import dev.objlog.store.ConditionalGetResult;
import dev.objlog.store.CreateResult;
import dev.objlog.store.ObjectMetadata;
import dev.objlog.store.ObjectStore;
import dev.objlog.store.ObjectUpload;
import dev.objlog.store.VersionToken;
import dev.objlog.store.memory.MemoryObjectStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ForwardingObjectStoreTests {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final class Plain extends ForwardingObjectStore {
    Plain(ObjectStore delegate) {
      super(delegate);
    }
  }

  @Test
  void everyStoreCallReachesTheDelegate() {
    MemoryObjectStore bucket = new MemoryObjectStore();
    ObjectStore wrapped = new Plain(bucket);

    VersionToken first = ((CreateResult.Created) wrapped.putIfAbsent("k/a", bytes("one"))).token();
    assertThat(bucket.get("k/a").bytes()).as("put through the wrapper lands in the delegate").isEqualTo(bytes("one"));
    CasResult swap = wrapped.compareAndSwap("k/a", first, bytes("two"));
    assertThat(swap.swapped()).as("compare-and-swap through the wrapper").isTrue();
    assertThat(bucket.get("k/a").bytes()).isEqualTo(bytes("two"));

    bucket.putIfAbsent("k/b", bytes("direct"));
    assertThat(wrapped.get("k/b").bytes()).as("get").isEqualTo(bytes("direct"));
    assertThat(wrapped.getRange("k/b", 1, 3)).as("getRange").isEqualTo(bytes("ire"));
    assertThat(wrapped.head("k/b").map(ObjectMetadata::size)).as("head").contains(6L);
    VersionToken b = bucket.head("k/b").orElseThrow().token();
    assertThat(wrapped.getIfChanged("k/b", b)).as("getIfChanged").isInstanceOf(ConditionalGetResult.Unchanged.class);

    try (ObjectUpload upload = wrapped.startUpload("k/c")) {
      upload.write(bytes("uploaded"));
      assertThat(upload.complete().created()).as("upload through the wrapper").isTrue();
    }
    assertThat(bucket.get("k/c").bytes()).isEqualTo(bytes("uploaded"));
    assertThat(wrapped.list("k/", "k/a", 10).entries()).extracting(ObjectMetadata::key)
        .as("list after k/a").containsExactly("k/b", "k/c");

    wrapped.delete(List.of("k/a", "k/b"));
    assertThat(bucket.list("k/", 10).entries()).extracting(ObjectMetadata::key).as("delete").containsExactly("k/c");
    assertThat(wrapped.describe()).isEqualTo("Plain(" + bucket.describe() + ")");
  }

  @Test
  void closingTheDecoratorLeavesTheDelegateOpen() {
    AtomicInteger closes = new AtomicInteger();
    ObjectStore owned = new ForwardingObjectStore(new MemoryObjectStore()) {
      @Override
      public void close() {
        closes.incrementAndGet();
      }
    };
    new Plain(owned).close();
    assertThat(closes).as("the decorator must not close the store it wraps").hasValue(0);
  }

  @Test
  void theConditionalWriteSelfTestRunsThroughTheDecorator() {
    AtomicInteger conditionalWrites = new AtomicInteger();
    ObjectStore counting = new ForwardingObjectStore(new MemoryObjectStore()) {
      @Override
      public CreateResult putIfAbsent(String key, byte[] bytes) {
        conditionalWrites.incrementAndGet();
        return super.putIfAbsent(key, bytes);
      }

      @Override
      public CasResult compareAndSwap(String key, VersionToken expected, byte[] bytes) {
        conditionalWrites.incrementAndGet();
        return super.compareAndSwap(key, expected, bytes);
      }
    };
    counting.verifyConditionalWrites("self-test/");
    assertThat(conditionalWrites.get()).as("self-test requests seen by the decorator").isPositive();
  }
}
