package dev.objlog.spring.test;

import dev.objlog.spring.core.RecordValueConverter;
import dev.objlog.spring.listener.ListenerErrorHandler;
import dev.objlog.spring.listener.ListenerRecoverer;
import dev.objlog.spring.listener.ObjlogListener;
import dev.objlog.spring.listener.ObjlogListenerConfigurer;
import dev.objlog.spring.listener.ObjlogListeners;
import dev.objlog.spring.listener.RecordPayloadConverter;
import java.io.IOException;
import java.util.Set;
import org.springframework.boot.test.context.filter.annotation.StandardAnnotationCustomizableTypeExcludeFilter;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;

/**
 * What {@link ObjlogTest}'s component scan keeps: classes with {@code @ObjlogListener} methods and
 * the converters and error handling objlog uses, besides what the annotation's filters say.
 */
final class ObjlogTypeExcludeFilter extends StandardAnnotationCustomizableTypeExcludeFilter<ObjlogTest> {
  private static final Set<Class<?>> INCLUDES =
      Set.of(RecordValueConverter.class, RecordPayloadConverter.class, ListenerErrorHandler.class, ListenerRecoverer.class,
          ObjlogListenerConfigurer.class);

  ObjlogTypeExcludeFilter(Class<?> testClass) {
    super(testClass);
  }

  @Override
  protected Set<Class<?>> getKnownIncludes() {
    return INCLUDES;
  }

  @Override
  protected boolean defaultInclude(MetadataReader metadataReader, MetadataReaderFactory metadataReaderFactory)
      throws IOException {
    AnnotationMetadata type = metadataReader.getAnnotationMetadata();
    return type.hasAnnotatedMethods(ObjlogListener.class.getName())
        || type.hasAnnotatedMethods(ObjlogListeners.class.getName())
        || super.defaultInclude(metadataReader, metadataReaderFactory);
  }
}
