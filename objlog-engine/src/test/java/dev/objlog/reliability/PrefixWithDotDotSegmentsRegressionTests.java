package dev.objlog.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.InvalidArgumentException;
import dev.objlog.ObjlogOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bug found by the reliability suite: {@code ObjlogOptions} accepted key prefixes with ".." (and
 * ".", empty, control-character) segments, so {@code prefix("../up")} produced keys such as
 * {@code ../up/catalog/...}: on S3/GCS/Azure odd literal keys, on the filesystem store a refusal
 * only at the first write. Prefixes now follow the stream-id rules at build time.
 */
class PrefixWithDotDotSegmentsRegressionTests {

  @Test
  void prefixesWithTraversalOrEmptySegmentsAreRefusedAtBuildTime() {
    for (String bad : List.of("../up", "a/../b", "a/./b", "a//b", "..", "ctl\u0001x")) {
      assertThatThrownBy(() -> ObjlogOptions.builder().prefix(bad).build()).as(bad)
          .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("prefix");
      assertThatThrownBy(() -> ObjlogOptions.builder().catalogPrefix(bad).build()).as(bad)
          .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("catalogPrefix");
      assertThatThrownBy(() -> ObjlogOptions.builder().segmentRootPrefix(bad).build()).as(bad)
          .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("segmentRootPrefix");
    }
  }

  @Test
  void ordinaryPrefixesStillWork() {
    for (String ok : List.of("", "/", "objlog", "/tenant-a/logs/", "t", "a.b/c..d")) {
      assertThat(ObjlogOptions.builder().prefix(ok).catalogPrefix(ok).segmentRootPrefix(ok).build()).isNotNull();
    }
  }
}
