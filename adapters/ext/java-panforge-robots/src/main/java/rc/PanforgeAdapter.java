package rc;

import com.google.gson.JsonObject;
import com.panforge.robotstxt.RobotsTxt;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.List;

/**
 * java-panforge-robots: com.panforge:robots 1.4.6 (github.com/pandzel/RobotsTxt, "Java library to
 * read, parse and query robots.txt file"), through {@link RcProto}.
 *
 * <p>Profile claimed: google. Its README and code follow Google's specification (longest match
 * wins, Allow wins ties, "*" and "$" wildcards, the "*" group as the fallback) and name no RFC.
 *
 * <p>Input conventions: RobotsTxt.read(InputStream) gets the raw bytes; it reads them through a
 * UTF-8 InputStreamReader (invalid bytes become U+FFFD, a BOM is not stripped by the JDK
 * decoder). One read per request, then query(agent, url) per URL: its API takes "the HTTP path
 * to the resource" or an absolute URL (it cuts that to path, query and fragment itself), so
 * URLs are passed as the case gives them. sitemaps: getSitemaps(). No crawl-delay: its only
 * per-agent crawl-delay is on the Grant that ask(agent, path) returns for one path, so the value
 * depends on the path asked about; there is no question the protocol's crawl-delay op can pose.
 *
 * <p>Known behaviour: see the adapters/ext/README.md table row (measured with the matrix).
 */
public final class PanforgeAdapter implements RcProto.Adapter {
    public static void main(String[] args) {
        RcProto.serve(new PanforgeAdapter());
    }

    @Override
    public JsonObject hello() {
        JsonObject h = new JsonObject();
        h.addProperty("name", "java-panforge-robots");
        String v = RobotsTxt.class.getPackage().getImplementationVersion();
        h.addProperty("version", "panforge robots " + (v != null ? v : "1.4.6"));
        h.addProperty("language", "java");
        h.addProperty("profile", "google");
        h.addProperty("body", "raw bytes (the parser decodes UTF-8)");
        return h;
    }

    private static RobotsTxt parse(byte[] robots) throws IOException {
        return RobotsTxt.read(new ByteArrayInputStream(robots));
    }

    @Override
    public List<RcProto.Result> decide(byte[] robots, String agent, List<String> urls) throws IOException {
        RobotsTxt r = parse(robots);
        return RcProto.each(urls, u -> r.query(agent, u));
    }

    @Override
    public List<String> sitemaps(byte[] robots) throws IOException {
        return parse(robots).getSitemaps();
    }
}
