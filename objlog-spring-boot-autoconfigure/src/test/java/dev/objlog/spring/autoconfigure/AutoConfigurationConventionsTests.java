package dev.objlog.spring.autoconfigure;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noMethods;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaPackage;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Boot's conventions for auto-configuration modules, in the spirit of its own build's
 * architecture checks, plus ours: only the engine's public packages, every package
 * {@code @NullMarked}.
 */
class AutoConfigurationConventionsTests {
  private static final String AUTO_CONFIGURATION = "org.springframework.boot.autoconfigure.AutoConfiguration";
  private static final String CONFIGURATION = "org.springframework.context.annotation.Configuration";
  private static final String BEAN = "org.springframework.context.annotation.Bean";
  private static final String CONDITIONAL_ON_CLASS = "org.springframework.boot.autoconfigure.condition.ConditionalOnClass";
  private static final String CONDITIONAL_ON_MISSING_BEAN =
      "org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean";
  private static final String CONFIGURATION_PROPERTIES =
      "org.springframework.boot.context.properties.ConfigurationProperties";

  private static JavaClasses classes;

  @BeforeAll
  static void importModule() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.objlog.spring");
    assertThat(classes).isNotEmpty();
  }

  private static final DescribedPredicate<JavaClass> AUTO_CONFIGURATIONS =
      DescribedPredicate.describe("@AutoConfiguration classes", c -> c.isAnnotatedWith(AUTO_CONFIGURATION));

  /** Auto-configuration and configuration classes, and every class nested in one. */
  private static final DescribedPredicate<JavaClass> IN_AUTO_CONFIGURATIONS =
      DescribedPredicate.describe(
          "declared in an @AutoConfiguration or @Configuration class",
          c -> {
            for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
              if (k.isAnnotatedWith(AUTO_CONFIGURATION) || k.isAnnotatedWith(CONFIGURATION)) {
                return true;
              }
            }
            return false;
          });

  @Test
  void autoConfigurationsArePublicAndFinal() {
    classes().that(AUTO_CONFIGURATIONS).should().bePublic().andShould().haveModifier(JavaModifier.FINAL).check(classes);
  }

  @Test
  void autoConfigurationsHaveNoPublicMembers() {
    members()
        .that()
        .areDeclaredInClassesThat(IN_AUTO_CONFIGURATIONS)
        .and(DescribedPredicate.describe("are not no-argument constructors", (JavaMember m) ->
            !(m instanceof JavaConstructor c && c.getParameters().isEmpty())))
        .and(DescribedPredicate.describe("are not constants", (JavaMember m) ->
            !(m instanceof JavaField f && f.getModifiers().containsAll(Set.of(JavaModifier.STATIC, JavaModifier.FINAL)))))
        .should()
        .notBePublic()
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  void nestedAndImportedConfigurationsAreNotPublic() {
    classes()
        .that()
        .areAnnotatedWith(CONFIGURATION)
        .and(DescribedPredicate.not(AUTO_CONFIGURATIONS))
        .should()
        .notBePublic()
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  void theImportsFileListsExactlyTheAutoConfigurations() throws IOException {
    Set<String> annotated =
        classes.stream().filter(AUTO_CONFIGURATIONS).map(JavaClass::getName).collect(Collectors.toCollection(TreeSet::new));
    URL module = ObjlogProperties.class.getProtectionDomain().getCodeSource().getLocation();
    String imports;
    try (InputStream in =
        new URL(module, "META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports").openStream()) {
      imports = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Set<String> listed =
        imports.lines().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).collect(Collectors.toCollection(TreeSet::new));
    assertThat(listed).isEqualTo(annotated);
  }

  @Test
  void nothingIsComponentScannedOrScans() {
    noClasses()
        .should()
        .beAnnotatedWith("org.springframework.context.annotation.ComponentScan")
        .orShould()
        .beAnnotatedWith("org.springframework.stereotype.Component")
        .orShould()
        .beAnnotatedWith("org.springframework.stereotype.Service")
        .check(classes);
  }

  @Test
  void beanMethodsAreNotConditionalOnClass() {
    noMethods().that().areAnnotatedWith(BEAN).should().beAnnotatedWith(CONDITIONAL_ON_CLASS).check(classes);
  }

  @Test
  void conditionalOnMissingBeanDoesNotRepeatTheReturnType() {
    methods()
        .that()
        .areAnnotatedWith(CONDITIONAL_ON_MISSING_BEAN)
        .should(new ArchCondition<JavaMethod>("not name only its own return type in @ConditionalOnMissingBean") {
          @Override
          public void check(JavaMethod method, ConditionEvents events) {
            JavaAnnotation<JavaMethod> annotation = method.getAnnotationOfType(CONDITIONAL_ON_MISSING_BEAN);
            Map<String, Object> values = annotation.getProperties();
            Object value = values.get("value");
            if (value instanceof JavaType[] types && types.length == 1 && types[0].equals(method.getReturnType())) {
              events.add(SimpleConditionEvent.violated(method, method.getFullName() + " repeats its return type"));
            }
          }
        })
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  void configurationPropertiesUseValueNotPrefix() {
    classes()
        .that()
        .areAnnotatedWith(CONFIGURATION_PROPERTIES)
        .should(new ArchCondition<JavaClass>("use @ConfigurationProperties(\"...\"), not prefix = \"...\"") {
          @Override
          public void check(JavaClass item, ConditionEvents events) {
            Map<String, Object> values = item.getAnnotationOfType(CONFIGURATION_PROPERTIES).getProperties();
            if (!"".equals(values.get("prefix"))) {
              events.add(SimpleConditionEvent.violated(item, item.getName() + " sets prefix"));
            }
          }
        })
        .check(classes);
  }

  @Test
  void conditionsAreNotPublic() {
    noClasses()
        .that()
        .areAssignableTo("org.springframework.boot.autoconfigure.condition.SpringBootCondition")
        .should()
        .bePublic()
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  void onlyTheEnginesPublicPackagesAreUsed() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.objlog.internal..")
        .check(classes);
  }

  @Test
  void packagesAreFreeOfCycles() {
    SlicesRuleDefinition.slices().matching("dev.objlog.spring.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void everyPackageIsNullMarked() {
    Set<JavaPackage> packages = classes.stream().map(JavaClass::getPackage).collect(Collectors.toSet());
    assertThat(packages)
        .isNotEmpty()
        .allSatisfy(p -> assertThat(p.isAnnotatedWith("org.jspecify.annotations.NullMarked"))
            .as("%s is @NullMarked", p.getName())
            .isTrue());
  }
}
