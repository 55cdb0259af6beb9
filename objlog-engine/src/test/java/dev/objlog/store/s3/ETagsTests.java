package dev.objlog.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.VersionToken;
import org.junit.jupiter.api.Test;

class ETagsTests {

  @Test
  void quotedAndUnquotedFormsOfOneETagAreOneToken() {
    VersionToken fromHeader = ETags.token("\"9b2cf535f27731c974343645a3985328\"", "PUT");
    VersionToken fromProxy = ETags.token("9b2cf535f27731c974343645a3985328", "LIST");
    VersionToken padded = ETags.token(" \"9b2cf535f27731c974343645a3985328\" ", "HEAD");
    assertThat(fromHeader).isEqualTo(fromProxy).isEqualTo(padded);
    assertThat(fromHeader.value()).isEqualTo("\"9b2cf535f27731c974343645a3985328\"");
  }

  @Test
  void multipartETagsKeepTheirPartCount() {
    assertThat(ETags.token("\"abc-3\"", "x").value()).isEqualTo("\"abc-3\"");
    assertThat(ETags.token("abc-3", "x").value()).isEqualTo("\"abc-3\"");
  }

  @Test
  void headersAreAlwaysQuoted() {
    assertThat(ETags.header(new VersionToken("abc"))).isEqualTo("\"abc\"");
    assertThat(ETags.header(new VersionToken("\"abc\""))).isEqualTo("\"abc\"");
  }

  @Test
  void aMissingETagIsPermanent() {
    assertThatThrownBy(() -> ETags.token(null, "PUT k")).isInstanceOf(PermanentStoreException.class)
        .hasMessageContaining("PUT k");
    assertThatThrownBy(() -> ETags.token("  ", "PUT k")).isInstanceOf(PermanentStoreException.class);
  }
}
