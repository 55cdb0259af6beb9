package dev.objlog.spring.autoconfigure.store;

import dev.objlog.spring.autoconfigure.ObjlogProperties.StoreType;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** The condition of {@link ConditionalOnStoreType}. */
final class OnStoreTypeCondition extends SpringBootCondition {

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    Map<String, Object> attributes =
        Objects.requireNonNull(metadata.getAnnotationAttributes(ConditionalOnStoreType.class.getName()));
    StoreType wanted = (StoreType) attributes.get("value");
    StoreTypeResolution resolution = StoreTypeResolution.resolve(context.getEnvironment(), context.getClassLoader());
    if (resolution.type() == wanted) {
      return ConditionOutcome.match("objlog.store.* means store type " + wanted
          + (resolution.inferred() ? " (the only provider SDK on the classpath)" : ""));
    }
    return ConditionOutcome.noMatch("objlog.store.* means store type " + resolution.type() + ", not " + wanted);
  }
}
