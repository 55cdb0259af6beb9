package dev.objlog.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.objlog.spring.test.InMemoryObjlog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;

@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.NONE,
    properties = "objlog.demo.enabled=false")
@InMemoryObjlog
@ExtendWith(OutputCaptureExtension.class)
class DemoDisabledTests {

  @Autowired
  ApplicationContext context;

  @Test
  void objlogDemoEnabledFalseSkipsTheDemo(CapturedOutput output) {
    assertThat(context.getBeansOfType(ObjlogDemo.class)).isEmpty();
    assertThat(output.getOut()).doesNotContain(ObjlogDemo.SUMMARY_TITLE);
  }
}
