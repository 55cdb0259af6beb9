package dev.objlog.format.key;

import java.util.HexFormat;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The three prefixes a provider store derives from its options (key layout v1 §3.2): the root,
 * the catalog prefix and the data root. All are trimmed of surrounding '/'.
 *
 * <p>Thread-safety: immutable.
 *
 * @param root {@code Options.Prefix} trimmed, or {@value #DEFAULT_ROOT} when that is empty
 * @param catalogPrefix where heads and pages live
 * @param dataRoot where segments and staging objects live
 */
public record KeyPrefixes(String root, String catalogPrefix, String dataRoot) {
  /** Root used when the configured prefix is empty; also the sink's default data root. */
  public static final String DEFAULT_ROOT = "objlog";

  /** The catalog's own default prefix when it is used without a provider. */
  public static final String DEFAULT_CATALOG_PREFIX = "catalog";

  public KeyPrefixes {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(catalogPrefix, "catalogPrefix");
    Objects.requireNonNull(dataRoot, "dataRoot");
  }

  /**
   * Resolves the provider prefixes: {@code root = trim(prefix)} or "objlog"; the catalog prefix
   * is the trimmed override or {@code root + "/catalog"}; the data root is the trimmed override
   * or the root. An override that trims to nothing counts as absent.
   */
  public static KeyPrefixes resolve(
      String prefix, @Nullable String catalogPrefixOverride, @Nullable String segmentRootOverride) {
    String root = orDefault(StreamIds.normalize(prefix), DEFAULT_ROOT);
    String catalog =
        catalogPrefixOverride == null ? "" : StreamIds.normalize(catalogPrefixOverride);
    String data = segmentRootOverride == null ? "" : StreamIds.normalize(segmentRootOverride);
    return new KeyPrefixes(
        root, orDefault(catalog, root + "/" + DEFAULT_CATALOG_PREFIX), orDefault(data, root));
  }

  /** {@link #resolve} without overrides. */
  public static KeyPrefixes resolve(String prefix) {
    return resolve(prefix, null, null);
  }

  private static String orDefault(String value, String fallback) {
    return value.isEmpty() ? fallback : value;
  }

  /** SHA-256 of this data root: the head's data_root_key. */
  public byte[] dataRootKey() {
    return dataRootKey(dataRoot);
  }

  /**
   * SHA-256 of a data root after trimming surrounding '/', with the empty root meaning
   * "objlog".
   */
  public static byte[] dataRootKey(String dataRoot) {
    String normalized = orDefault(StreamIds.normalize(dataRoot), DEFAULT_ROOT);
    return StreamIds.sha256(normalized.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** {@link #dataRootKey()} as 64 lowercase hex digits. */
  public String dataRootKeyHex() {
    return HexFormat.of().formatHex(dataRootKey());
  }
}
