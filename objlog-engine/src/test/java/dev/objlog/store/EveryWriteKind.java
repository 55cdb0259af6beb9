package dev.objlog.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

/**
 * Makes each kind of write a store adapter has, in this order: a create-only put and a
 * compare-and-swap of a catalog-like key ({@code head.plc}), a one-request upload of a segment,
 * and an upload of a segment of {@code bigBytes} (big enough for the adapter's multipart, staged
 * or resumable path). For tests that check what every write carries.
 */
public final class EveryWriteKind {
  private EveryWriteKind() {}

  public static void write(ObjectStore store, String prefix, int bigBytes) {
    String head = prefix + "head.plc";
    VersionToken first = ((CreateResult.Created) store.putIfAbsent(head, "v1".getBytes(UTF_8))).token();
    assertThat(store.compareAndSwap(head, first, "v2".getBytes(UTF_8))).isInstanceOf(CasResult.Swapped.class);
    try (ObjectUpload small = store.startUpload(prefix + "segments/seg-small.plseg")) {
      small.write("tiny".getBytes(UTF_8));
      assertThat(small.complete().created()).isTrue();
    }
    byte[] big = new byte[bigBytes];
    new Random(bigBytes).nextBytes(big);
    try (ObjectUpload upload = store.startUpload(prefix + "segments/seg-big.plseg")) {
      upload.write(big);
      assertThat(upload.complete().created()).isTrue();
    }
    assertThat(store.get(prefix + "segments/seg-big.plseg").bytes()).isEqualTo(big);
  }
}
