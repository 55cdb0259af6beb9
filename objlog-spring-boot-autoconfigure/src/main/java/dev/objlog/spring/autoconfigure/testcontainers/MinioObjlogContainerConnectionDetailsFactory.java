package dev.objlog.spring.autoconfigure.testcontainers;

import dev.objlog.spring.autoconfigure.store.DevelopmentBucket;
import dev.objlog.spring.autoconfigure.store.ObjlogConnectionDetails;
import java.net.URI;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeansException;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.testcontainers.containers.MinIOContainer;

/**
 * {@link ObjlogConnectionDetails} for a {@code @ServiceConnection MinIOContainer}: its S3 URL,
 * path-style addressing, and its user name and password as static credentials. The bucket still
 * comes from {@code objlog.store.bucket}; with {@code objlog.store.type=s3} it is created in the
 * container when missing ({@link DevelopmentBucket}), as the details bean is initialized, before
 * the store is built and self-tested.
 */
class MinioObjlogContainerConnectionDetailsFactory
    extends ContainerConnectionDetailsFactory<MinIOContainer, ObjlogConnectionDetails> {

  MinioObjlogContainerConnectionDetailsFactory() {
    super(ANY_CONNECTION_NAME, "org.testcontainers.containers.MinIOContainer");
  }

  @Override
  protected ObjlogConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<MinIOContainer> source) {
    return new MinioObjlogConnectionDetails(source);
  }

  static final class MinioObjlogConnectionDetails extends ContainerConnectionDetails<MinIOContainer>
      implements ObjlogConnectionDetails {

    private @Nullable ApplicationContext context;

    MinioObjlogConnectionDetails(ContainerConnectionSource<MinIOContainer> source) {
      super(source);
    }

    @Override
    public void setApplicationContext(ApplicationContext context) throws BeansException {
      super.setApplicationContext(context);
      this.context = context;
    }

    @Override
    public void afterPropertiesSet() throws Exception {
      super.afterPropertiesSet();
      if (context != null) {
        DevelopmentBucket.createIfMissing(this, context.getEnvironment());
      }
    }

    @Override
    public URI getEndpoint() {
      return URI.create(getContainer().getS3URL());
    }

    @Override
    public @Nullable String getRegion() {
      return null;
    }

    @Override
    public boolean isPathStyle() {
      return true;
    }

    @Override
    public String getAccessKey() {
      return getContainer().getUserName();
    }

    @Override
    public String getSecretKey() {
      return getContainer().getPassword();
    }
  }
}
