package dev.objlog.spring.test.example;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the module's tests (and docs/SPRING.md's "Testing" example) test. */
@SpringBootApplication
public class ShopApplication {}
