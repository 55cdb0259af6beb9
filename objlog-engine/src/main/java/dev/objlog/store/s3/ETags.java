package dev.objlog.store.s3;

import dev.objlog.store.PermanentStoreException;
import dev.objlog.store.VersionToken;
import org.jspecify.annotations.Nullable;

/**
 * One normalisation of S3 ETags, used for every token this provider hands out or sends back.
 *
 * <p>S3 reports ETags quoted ({@code "9b2cf535f27731c974343645a3985328"}) in headers and in
 * listings, but some S3-compatible servers and proxies drop the quotes in one place and keep them
 * in another. Tokens are compared with {@code equals}, so a token from a listing must equal the
 * token from a PUT of the same version: we always use the quoted form, which is also what {@code
 * If-Match} and {@code If-None-Match} expect on the wire.
 */
final class ETags {
  private ETags() {}

  /** The token for an ETag as a response reported it. */
  static VersionToken token(@Nullable String etag, String what) {
    if (etag == null || etag.isBlank()) {
      throw new PermanentStoreException(
          what + ": the store returned no ETag; objlog needs ETags as version tokens, so this"
              + " endpoint is not S3-compatible enough to use");
    }
    return new VersionToken(quoted(etag));
  }

  /** The header value for a token, whatever form the caller kept it in. */
  static String header(VersionToken token) {
    return quoted(token.value());
  }

  static String quoted(String etag) {
    String trimmed = etag.trim();
    if (trimmed.length() >= 2 && trimmed.startsWith("\"") && trimmed.endsWith("\"")) {
      return trimmed;
    }
    return '"' + trimmed + '"';
  }
}
