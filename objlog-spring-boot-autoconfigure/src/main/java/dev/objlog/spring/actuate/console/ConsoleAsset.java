package dev.objlog.spring.actuate.console;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;
import org.springframework.web.HttpRequestHandler;

/**
 * One file of the console page, read once from the starter's jar and served with headers that keep
 * it from being framed, sniffed or made to load anything from elsewhere.
 *
 * <p>Thread-safety: immutable.
 */
public final class ConsoleAsset implements HttpRequestHandler {
  /** Where the page's files live on the classpath. */
  public static final String FOLDER = "dev/objlog/spring/actuate/console/";

  /** The page's files: name (under {@link #FOLDER} and under the console's path) and media type. */
  public static final List<ConsoleAsset> ALL = List.of(
      new ConsoleAsset("index.html", "text/html;charset=UTF-8"),
      new ConsoleAsset("console.css", "text/css;charset=UTF-8"),
      new ConsoleAsset("console.js", "text/javascript;charset=UTF-8"));

  /**
   * Scripts, styles and requests only from the page's own origin; no frames, no forms, no plugins.
   * The page's write actions use {@code fetch}, never a form.
   */
  static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

  private final String name;
  private final String mediaType;
  private final byte[] bytes;

  private ConsoleAsset(String name, String mediaType) {
    this.name = name;
    this.mediaType = mediaType;
    try (InputStream in = Objects.requireNonNull(ConsoleAsset.class.getClassLoader().getResourceAsStream(FOLDER + name),
        () -> "the starter's jar lacks " + FOLDER + name)) {
      this.bytes = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + FOLDER + name, e);
    }
  }

  /** The file name. */
  public String name() {
    return name;
  }

  @Override
  public void handleRequest(HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (!request.getMethod().equals("GET") && !request.getMethod().equals("HEAD")) {
      response.setHeader("Allow", "GET, HEAD");
      response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
      return;
    }
    response.setContentType(mediaType);
    response.setHeader("Cache-Control", "no-cache");
    response.setHeader("X-Content-Type-Options", "nosniff");
    response.setHeader("X-Frame-Options", "DENY");
    response.setHeader("Referrer-Policy", "no-referrer");
    response.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    response.setContentLength(bytes.length);
    if (request.getMethod().equals("GET")) {
      response.getOutputStream().write(bytes);
    }
  }
}
