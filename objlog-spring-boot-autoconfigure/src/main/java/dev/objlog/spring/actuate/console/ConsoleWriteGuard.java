package dev.objlog.spring.actuate.console;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses a write request to the {@code objlog} endpoint that a browser sends on behalf of another
 * site. A request is a browser's when it carries {@code Sec-Fetch-Site} or {@code Origin} (every
 * current browser sends one of them with a POST); such a request passes only when it comes from
 * the same origin, carries the {@value #HEADER} header and a JSON body. A page elsewhere can set
 * neither the header nor a JSON content type without a CORS preflight, which the actuator answers
 * only for origins an operator allowed; a plain HTML form can set neither at all. Requests without
 * those headers (scripts, {@code curl}) pass unchanged: they carry no cookies or credentials a
 * browser would add by itself.
 *
 * <p>Thread-safety: immutable.
 */
public final class ConsoleWriteGuard implements HandlerInterceptor {
  /** The header the console sends with every write action. */
  public static final String HEADER = "X-Objlog-Console";

  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");

  @Override
  public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
      throws IOException {
    if (SAFE_METHODS.contains(request.getMethod())) {
      return true;
    }
    String refusal = refusal(request);
    if (refusal == null) {
      return true;
    }
    byte[] body = ("{\"status\":403,\"error\":\"Forbidden\",\"message\":\"" + refusal + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    response.setStatus(HttpServletResponse.SC_FORBIDDEN);
    response.setContentType("application/json");
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
    return false;
  }

  /** Why the request is refused, or null when it passes. */
  static @Nullable String refusal(HttpServletRequest request) {
    String site = request.getHeader("Sec-Fetch-Site");
    String origin = request.getHeader("Origin");
    if (site == null && origin == null) {
      return null;
    }
    if (site != null) {
      if (!site.equals("same-origin") && !site.equals("none")) {
        return "a write from another site (Sec-Fetch-Site: " + printable(site) + ") is refused";
      }
    } else if (!origin.equals(ownOrigin(request))) {
      return "a write from another origin (" + printable(origin) + ") is refused";
    }
    if (request.getHeader(HEADER) == null) {
      return "a browser's write needs the " + HEADER + " header";
    }
    String type = request.getContentType();
    if (type == null || !type.toLowerCase(Locale.ROOT).contains("json")) {
      return "a browser's write needs a JSON body";
    }
    return null;
  }

  private static String ownOrigin(HttpServletRequest request) {
    String scheme = request.getScheme();
    int port = request.getServerPort();
    boolean defaultPort = (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);
    return scheme + "://" + request.getServerName() + (defaultPort ? "" : ":" + port);
  }

  /** A header value safe to echo inside a JSON string. */
  private static String printable(String value) {
    StringBuilder out = new StringBuilder();
    for (char c : value.toCharArray()) {
      out.append(c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? c : '?');
      if (out.length() >= 100) {
        break;
      }
    }
    return out.toString();
  }
}
