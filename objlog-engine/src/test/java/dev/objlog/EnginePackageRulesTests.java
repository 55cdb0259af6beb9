package dev.objlog;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.NullMarked;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The package rules of the engine (ARCHITECTURE.md, "Engine packages"): dependencies point down. */
class EnginePackageRulesTests {

  private static JavaClasses engine;

  @BeforeAll
  static void importEngine() {
    engine =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.objlog");
    assertThat(engine).as("engine classes imported").isNotEmpty();
  }

  /** The root-package exception types are the one thing of ours every layer may throw. */
  private static final DescribedPredicate<JavaClass> OBJLOG_EXCEPTION =
      DescribedPredicate.describe(
          "an objlog exception type",
          c -> c.getPackageName().equals("dev.objlog") && c.isAssignableTo(ObjlogException.class));

  @Test
  void formatPackagesImportNothingElseOfOurs() {
    noClasses()
        .that()
        .resideInAPackage("dev.objlog.format..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "objlog classes outside dev.objlog.format (exception types aside)",
                (JavaClass c) ->
                    c.getPackageName().startsWith("dev.objlog")
                        && !c.getPackageName().startsWith("dev.objlog.format")
                        && !OBJLOG_EXCEPTION.test(c)))
        .allowEmptyShould(true)
        .check(engine);
  }

  @Test
  void storePackagesKnowNothingOfLogsOrFormats() {
    noClasses()
        .that()
        .resideInAPackage("dev.objlog.store..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.objlog.format..", "dev.objlog.internal..", "dev.objlog.read..", "dev.objlog.lifecycle..")
        .allowEmptyShould(true)
        .check(engine);
    noClasses()
        .that()
        .resideInAPackage("dev.objlog.store..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "root-package classes other than exception types",
                (JavaClass c) -> c.getPackageName().equals("dev.objlog") && !OBJLOG_EXCEPTION.test(c)))
        .allowEmptyShould(true)
        .check(engine);
  }

  @Test
  void groundFloorNeverReachesUpIntoInternals() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.objlog.format..", "dev.objlog.store..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.objlog.internal..")
        .allowEmptyShould(true)
        .check(engine);
  }

  @Test
  void theJsonCodecImportsNothingElseOfOursAndKeepsJacksonToItself() {
    noClasses()
        .that()
        .resideInAPackage("dev.objlog.coordination.json..")
        .should()
        .dependOnClassesThat(
            DescribedPredicate.describe(
                "objlog classes outside the codec (exception types aside)",
                (JavaClass c) ->
                    c.getPackageName().startsWith("dev.objlog")
                        && !c.getPackageName().startsWith("dev.objlog.coordination.json")
                        && !OBJLOG_EXCEPTION.test(c)))
        .check(engine);
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.objlog.coordination.json..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("tools.jackson..")
        .because("documents go through the one codec, and Jackson stays an implementation detail")
        .check(engine);
  }

  @Test
  void everyPackageIsNullMarked() {
    TreeSet<String> unmarked = new TreeSet<>();
    for (JavaClass c : engine) {
      JavaPackage pkg = c.getPackage();
      boolean marked =
          pkg.tryGetPackageInfo().map(info -> info.isAnnotatedWith(NullMarked.class)).orElse(false);
      if (!marked) {
        unmarked.add(pkg.getName());
      }
    }
    assertThat(List.copyOf(unmarked)).as("packages without @NullMarked package-info").isEmpty();
  }
}
