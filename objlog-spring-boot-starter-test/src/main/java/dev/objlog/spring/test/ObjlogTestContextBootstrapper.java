package dev.objlog.spring.test;

import org.springframework.boot.test.autoconfigure.TestSliceTestContextBootstrapper;

/** Adds {@link ObjlogTest#properties()} to the environment of an {@code @ObjlogTest}. */
class ObjlogTestContextBootstrapper extends TestSliceTestContextBootstrapper<ObjlogTest> {}
