package dev.objlog.spring.autoconfigure.store;

import dev.objlog.spring.autoconfigure.ObjlogProperties.StoreType;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Conditional;

/** Matches when {@code objlog.store.*} means this store type ({@link StoreTypeResolution}). */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@Conditional(OnStoreTypeCondition.class)
@interface ConditionalOnStoreType {
  StoreType value();
}
