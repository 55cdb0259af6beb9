package dev.objlog.store.s3;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Records each SDK operation and the HTTP status it got, to count requests per SPI call. */
final class RequestLog implements ExecutionInterceptor {
  private final List<String> entries = new ArrayList<>();

  @Override
  public synchronized void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
    entries.add(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " " + context.httpResponse().statusCode());
  }

  @Override
  public synchronized void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
    entries.add(
        attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME) + " "
            + context.httpResponse().map(r -> String.valueOf(r.statusCode())).orElse("no-response"));
  }

  synchronized List<String> drain() {
    List<String> copy = List.copyOf(entries);
    entries.clear();
    return copy;
  }
}
