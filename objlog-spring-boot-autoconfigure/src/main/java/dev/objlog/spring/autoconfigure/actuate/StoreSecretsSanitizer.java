package dev.objlog.spring.autoconfigure.actuate;

import java.util.List;
import java.util.Locale;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * The function behind {@link ObjlogSanitizingAutoConfiguration}'s bean: masks objlog's store
 * secrets by key, in every relaxed form of the key.
 *
 * <p>Thread-safety: immutable.
 */
final class StoreSecretsSanitizer implements SanitizingFunction {
  /** Masked whole: the value is a secret, or (the GCS location) says where one lives. */
  private static final List<String> SECRET_KEYS = List.of(
      "objlogstores3secretkey",
      "objlogstoreazureaccountkey",
      "objlogstoreazureconnectionstring",
      "objlogstoregcscredentialslocation");
  /** An Azure endpoint may carry a SAS token in its query; the rest of it is useful to see. */
  private static final String AZURE_ENDPOINT = "objlogstoreazureendpoint";

  @Override
  public SanitizableData apply(SanitizableData data) {
    if (data.getValue() == null) {
      return data;
    }
    String key = normalized(data.getKey());
    for (String secret : SECRET_KEYS) {
      if (key.startsWith(secret)) {
        return data.withSanitizedValue();
      }
    }
    if (key.equals(AZURE_ENDPOINT)) {
      String endpoint = String.valueOf(data.getValue());
      int query = endpoint.indexOf('?');
      if (query >= 0) {
        return data.withValue(endpoint.substring(0, query + 1) + SanitizableData.SANITIZED_VALUE);
      }
    }
    return data;
  }

  private static String normalized(String key) {
    StringBuilder out = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c != '.' && c != '-' && c != '_' && c != '[' && c != ']') {
        out.append(c);
      }
    }
    return out.toString().toLowerCase(Locale.ROOT);
  }
}
