package dev.objlog.spring.autoconfigure;

import dev.objlog.ObjlogException;
import java.util.Objects;

/**
 * The {@code objlog.*} configuration cannot work: a required property is missing, a value is out
 * of range, or the classpath lacks what the configuration asks for. Raised while the application
 * context starts; its failure analyzer prints {@link #getProblem()} and {@link #getAction()}.
 *
 * <p>Thread-safety: immutable once thrown.
 */
public class ObjlogConfigurationException extends ObjlogException {
  private static final long serialVersionUID = 1L;

  private final String property;
  private final String problem;
  private final String action;

  /**
   * @param property the property to change, e.g. {@code objlog.store.bucket}
   * @param problem what is wrong, as a sentence
   * @param action what to change, as a sentence
   */
  public ObjlogConfigurationException(String property, String problem, String action) {
    super("Invalid objlog configuration (" + property + "): " + problem + " " + action);
    this.property = Objects.requireNonNull(property, "property");
    this.problem = Objects.requireNonNull(problem, "problem");
    this.action = Objects.requireNonNull(action, "action");
  }

  /** The property (or property prefix) to change. */
  public String getProperty() {
    return property;
  }

  /** What is wrong. */
  public String getProblem() {
    return problem;
  }

  /** What to change. */
  public String getAction() {
    return action;
  }
}
