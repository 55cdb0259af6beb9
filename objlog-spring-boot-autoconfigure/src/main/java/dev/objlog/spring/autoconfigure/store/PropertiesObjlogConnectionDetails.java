package dev.objlog.spring.autoconfigure.store;

import dev.objlog.spring.autoconfigure.ObjlogProperties;
import java.net.URI;
import org.jspecify.annotations.Nullable;

/** {@link ObjlogConnectionDetails} from the {@code objlog.store.s3.*} properties. */
final class PropertiesObjlogConnectionDetails implements ObjlogConnectionDetails {
  private final ObjlogProperties.Store store;

  PropertiesObjlogConnectionDetails(ObjlogProperties properties) {
    this.store = properties.getStore();
  }

  @Override
  public @Nullable URI getEndpoint() {
    return store.getS3().getEndpoint();
  }

  @Override
  public @Nullable String getRegion() {
    return store.getS3().getRegion();
  }

  @Override
  public boolean isPathStyle() {
    return store.getS3().isPathStyle();
  }

  @Override
  public @Nullable String getAccessKey() {
    return store.getS3().getAccessKey();
  }

  @Override
  public @Nullable String getSecretKey() {
    return store.getS3().getSecretKey();
  }

  @Override
  public @Nullable String getBucket() {
    return store.getBucket();
  }

  /** Whether any connection setting is given, so that objlog builds its own client. */
  boolean hasConnectionSettings() {
    ObjlogProperties.S3 s3 = store.getS3();
    return s3.getEndpoint() != null || hasText(s3.getRegion()) || hasText(s3.getAccessKey()) || hasText(s3.getSecretKey());
  }

  private static boolean hasText(@Nullable String s) {
    return s != null && !s.isBlank();
  }

  @Override
  public String toString() {
    return "PropertiesObjlogConnectionDetails[endpoint=" + getEndpoint() + ", region=" + getRegion()
        + ", pathStyle=" + isPathStyle() + ", accessKey=" + (getAccessKey() == null ? "unset" : "***") + "]";
  }
}
