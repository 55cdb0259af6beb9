package dev.objlog.internal.catalog;

import static dev.objlog.internal.catalog.CatalogTestSupport.catalog;
import static dev.objlog.internal.catalog.CatalogTestSupport.id;
import static dev.objlog.internal.catalog.CatalogTestSupport.keys;
import static dev.objlog.internal.catalog.CatalogTestSupport.options;
import static dev.objlog.internal.catalog.CatalogTestSupport.segment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.PartitionHead;
import dev.objlog.SegmentRef;
import dev.objlog.format.catalog.LeafEntry;
import dev.objlog.format.key.ParsedKey;
import dev.objlog.format.key.PartitionKeys;
import dev.objlog.store.memory.MemoryObjectStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Conversions between catalog entries and the public value types. */
class SegmentRefsTests {

  @Test
  void aLeafEntryRoundTripsThroughItsPublicRefWithItsSegmentKeyAsUri() {
    LeafEntry entry = segment(3, id(4), -3L, 2, 10, 20); // base LSN 2^64-3, printed unsigned
    SegmentRef ref = SegmentRefs.toSegmentRef(keys(), entry);

    ParsedKey.Segment key = keys().parseSegment(ref.uri());
    assertThat(key.baseLsn()).isEqualTo(-3L);
    assertThat(key.writerEpoch()).isEqualTo(3);
    assertThat(ref.segmentUuid()).isEqualTo(entry.segmentUuid().hex());
    assertThat(ref.writerTag()).isEqualTo(id(4).hex());
    assertThat(ref.toString()).contains("18446744073709551613");
    assertThat(SegmentRefs.toLeafEntry(keys(), ref)).isEqualTo(entry);
  }

  @Test
  void aRefWhoseUriOrPartitionDoesNotMatchIsRefused() {
    SegmentRef ref = SegmentRefs.toSegmentRef(keys(), segment(3, id(4), 100, 2, 10, 20));
    SegmentRef moved = new SegmentRef(ref.uri().replace("seg-", "seg-1"), ref.streamId(),
        ref.partition(), ref.writerEpoch(), ref.segmentUuid(), ref.writerTag(), ref.baseLsn(),
        ref.lastLsn(), ref.minTimestampMs(), ref.maxTimestampMs(), ref.recordCount(),
        ref.blockCount(), ref.sizeBytes(), ref.blockIndexOffset(), ref.blockIndexLength(),
        ref.codec(), ref.hashAlgorithm(), ref.segmentHash(), ref.trailerHash());
    PartitionKeys other = PartitionKeys.of(CatalogTestSupport.PREFIXES, CatalogTestSupport.STREAM, 8);

    assertThatThrownBy(() -> SegmentRefs.toLeafEntry(keys(), moved)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> SegmentRefs.toLeafEntry(other, ref)).isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> new SegmentRef(ref.uri(), ref.streamId(), 7, 3, "ABC", ref.writerTag(),
        0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0)).isInstanceOf(InvalidArgumentException.class);
  }

  @Test
  void thePublicHeadCarriesTheCommittedState() {
    PartitionCatalog catalog = catalog(new MemoryObjectStore(), options(4, 4));
    FencedSession session = catalog.takeover(id(1));
    LeafEntry entry = segment(session, 0, 5, 1, 2);
    PublishResult result = session.publish(List.of(entry));

    PartitionHead head = SegmentRefs.toPartitionHead(keys(), result.head());

    assertThat(head.streamId()).isEqualTo(CatalogTestSupport.STREAM);
    assertThat(head.partition()).isEqualTo(CatalogTestSupport.PARTITION);
    assertThat(head.nextLsn()).isEqualTo(5);
    assertThat(head.writerEpoch()).isEqualTo(1);
    assertThat(head.generation()).isEqualTo(2);
    assertThat(head.segmentCount()).isEqualTo(1);
    assertThat(head.lastSegmentIfAny()).contains(SegmentRefs.toSegmentRef(keys(), entry));
    assertThat(SegmentRefs.toPartitionHead(keys(), catalog.initializePartition(0).head().head())
        .hasLastSegment()).isTrue();
  }
}
