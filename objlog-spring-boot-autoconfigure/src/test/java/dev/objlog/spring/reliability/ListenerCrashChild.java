package dev.objlog.spring.reliability;

import dev.objlog.read.ReadRecord;
import dev.objlog.spring.listener.ObjlogListener;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The child JVM of {@link ListenerCrashTests}: a minimal Spring application whose
 * {@code @ObjlogListener} consumes a stream on the filesystem store, with checkpoints in the bucket,
 * and prints {@code GOT <lsn> .} for each record before returning (so before any checkpoint can
 * cover it). The trailing dot marks a complete line: a line torn by SIGKILL is ignored.
 *
 * <p>Arguments: Spring properties ({@code name=value}), passed through; {@code
 * crash.record-delay-micros} is how long each record takes.
 */
public final class ListenerCrashChild {
  /** Unbuffered, so that what the listener reports is in the pipe before it returns. */
  static final PrintStream OUT =
      new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

  private ListenerCrashChild() {}

  public static void main(String[] args) throws InterruptedException {
    new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE).properties(args).run();
    OUT.println("READY .");
    // The listener threads are daemons: keep the JVM up until the test kills it.
    Thread.currentThread().join();
  }

  @Configuration(proxyBeanMethods = false)
  @EnableAutoConfiguration
  static class App {
    @Bean
    Processor processor(@Value("${crash.record-delay-micros:0}") long delayMicros) {
      return new Processor(delayMicros);
    }
  }

  static class Processor {
    private final long delayMicros;

    Processor(long delayMicros) {
      this.delayMicros = delayMicros;
    }

    @ObjlogListener(id = ListenerCrashTests.LISTENER, stream = "orders")
    void onRecord(ReadRecord record) {
      OUT.println("GOT " + Long.toUnsignedString(record.lsn()) + " .");
      // Work takes a while, so that kills land mid-stream (between a record and its checkpoint).
      LockSupport.parkNanos(delayMicros * 1000);
    }
  }
}
