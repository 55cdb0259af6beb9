package dev.objlog.spring.autoconfigure.streams;

import dev.objlog.spring.autoconfigure.ObjlogProperties;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** Matches when exactly one stream is configured under {@code objlog.streams}. */
final class OnSingleStreamCondition extends SpringBootCondition {

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    Map<String, ObjlogProperties.Stream> streams = Binder.get(context.getEnvironment())
        .bind("objlog.streams", Bindable.mapOf(String.class, ObjlogProperties.Stream.class))
        .orElse(Map.of());
    return streams.size() == 1
        ? ConditionOutcome.match("exactly one stream is configured under objlog.streams")
        : ConditionOutcome.noMatch(streams.size() + " streams are configured under objlog.streams");
  }
}
