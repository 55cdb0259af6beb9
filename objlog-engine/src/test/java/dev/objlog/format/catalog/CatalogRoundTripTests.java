package dev.objlog.format.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.ObjlogException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded randomized round trips: random valid leaf pages, index pages and heads (random limits,
 * counts and sections, unsigned extremes) encode, decode to an equal value and re-encode to the
 * same bytes. Random re-sealed mutations of those objects must either decode to an object that
 * re-encodes to exactly the mutated bytes (every accepted object is canonical) or be rejected with
 * a typed error.
 */
class CatalogRoundTripTests {
  private static final int ROUNDS = 150;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 7, 42, 1234567, 20261129, -5})
  void randomPagesRoundTripByteForByte(long seed) {
    RandomCatalog random = new RandomCatalog(seed);
    for (int round = 0; round < ROUNDS; round++) {
      String where = "seed " + seed + " round " + round;
      int partition = random.random().nextInt();
      Key256 streamKey = random.key();
      CatalogIdentity identity = new CatalogIdentity(partition, streamKey, random.key());
      for (CatalogPage page :
          List.of(random.leafPage(partition, streamKey), random.indexPage(partition, streamKey))) {
        EncodedPage encoded = CatalogCodec.encodePage(page);
        byte[] bytes = encoded.bytes();
        assertThat(bytes).as(where).hasSize(page.encodedSize());
        DecodedPage decoded = CatalogCodec.decodePage(bytes, identity);
        assertThat(decoded.page()).as(where).isEqualTo(page);
        assertThat(decoded.pageId()).as(where).isEqualTo(encoded.pageId());
        assertThat(CatalogFormat.pageId(bytes)).as(where).isEqualTo(encoded.pageId());
        assertThat(CatalogCodec.encodePage(decoded.page()).bytes()).as(where).isEqualTo(bytes);
        DecodedPage child =
            CatalogCodec.decodeChild(bytes, encoded.reference(), page.header().writerEpoch(), identity);
        assertThat(child).as(where).isEqualTo(decoded);
        int expectedSize =
            page instanceof LeafPage
                ? CatalogFormat.leafPageSize(page.entryCount())
                : CatalogFormat.indexPageSize(page.entryCount());
        assertThat(bytes.length).as(where).isEqualTo(expectedSize);
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 7, 42, 1234567, 20261129, -5})
  void randomHeadsRoundTripByteForByte(long seed) {
    RandomCatalog random = new RandomCatalog(seed);
    int populated = 0;
    int withPageRoots = 0;
    int withAllLevels = 0;
    for (int round = 0; round < ROUNDS; round++) {
      String where = "seed " + seed + " round " + round;
      Head head = random.head();
      byte[] bytes = CatalogCodec.encodeHead(head);
      int[] sectionSizes = head.sections().stream().mapToInt(List::size).toArray();
      assertThat(bytes).as(where).hasSize(CatalogFormat.headSize(head.activeCount(), sectionSizes));
      Head decoded =
          CatalogCodec.decodeHead(
              bytes, new CatalogIdentity(head.partition(), head.streamKey(), head.dataRootKey()));
      assertThat(decoded).as(where).isEqualTo(head);
      assertThat(CatalogCodec.encodeHead(decoded)).as(where).isEqualTo(bytes);
      assertThat(decoded.roots()).as(where).isEqualTo(head.roots());
      if (!head.roots().isEmpty()) {
        populated++;
        assertThat(head.roots().get(0).seqLo()).as(where).isEqualTo(head.oldestLsn());
      }
      if (head.roots().stream().anyMatch(root -> root instanceof Root.PageRoot)) {
        withPageRoots++;
      }
      if (head.levelCount() == CatalogFormat.MAX_OPEN_INDEX_LEVEL) {
        withAllLevels++;
      }
    }
    assertThat(populated).as("heads with roots for seed %d", seed).isPositive();
    assertThat(withPageRoots).as("heads with page roots for seed %d", seed).isPositive();
    assertThat(withAllLevels).as("heads with 64 sections for seed %d", seed).isPositive();
  }

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {11, 12, 13, 14})
  void resealedRandomMutationsAreRejectedTypedOrAcceptedCanonically(long seed) {
    RandomCatalog random = new RandomCatalog(seed);
    SplittableRandom r = random.random();
    int rejected = 0;
    int accepted = 0;
    for (int round = 0; round < ROUNDS; round++) {
      List<byte[]> objects = new ArrayList<>();
      List<Boolean> isPage = new ArrayList<>();
      Head head = random.head();
      objects.add(CatalogCodec.encodeHead(head));
      isPage.add(false);
      objects.add(CatalogCodec.encodePage(random.leafPage(1, random.key())).bytes());
      isPage.add(true);
      objects.add(CatalogCodec.encodePage(random.indexPage(1, random.key())).bytes());
      isPage.add(true);
      for (int o = 0; o < objects.size(); o++) {
        byte[] original = objects.get(o);
        for (int m = 0; m < 20; m++) {
          byte[] mutated = original.clone();
          int edits = 1 + r.nextInt(4);
          for (int e = 0; e < edits; e++) {
            int at = r.nextInt(mutated.length - 32);
            mutated[at] = (byte) (r.nextInt(4) == 0 ? 0 : r.nextInt(256));
          }
          // Reseal with the declared algorithm when it is known, so the semantic rules run.
          int algorithmOffset = isPage.get(o) ? 18 : 16;
          int declared = ((mutated[algorithmOffset] & 0xFF) << 8) | (mutated[algorithmOffset + 1] & 0xFF);
          byte[] candidate =
              declared <= 1
                  ? Reseal.reseal(mutated, dev.objlog.format.HashAlgorithm.fromId(declared))
                  : mutated;
          String where = "seed " + seed + " round " + round + " object " + o + " mutation " + m;
          try {
            byte[] again =
                isPage.get(o)
                    ? CatalogCodec.encodePage(CatalogCodec.decodePage(candidate).page()).bytes()
                    : CatalogCodec.encodeHead(CatalogCodec.decodeHead(candidate));
            assertThat(again).as(where + ": accepted objects are canonical").isEqualTo(candidate);
            accepted++;
          } catch (ObjlogException expected) {
            rejected++;
          } catch (RuntimeException e) {
            throw new AssertionError(where + ": untyped " + e, e);
          }
        }
      }
    }
    assertThat(rejected).as("mutations rejected").isPositive();
    assertThat(accepted).as("mutations of free fields accepted").isPositive();
  }
}
