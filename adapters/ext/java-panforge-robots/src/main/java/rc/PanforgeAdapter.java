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
 * <p>Profile claimed: rfc9309. Its package documentation says it "follows recommendations" of
 * the 1994 convention (robotstxt.org/orig.html), the 1996 draft (norobots-rfc.txt, the lineage of
 * RFC 9309), Wikipedia and Google's documentation, so it claims neither reading outright; by the
 * rule of adapters/ext/README.md it gets the nearer one, measured: 165 failures under rfc9309
 * against 298 under google.
 *
 * <p>Input conventions: RobotsTxt.read(InputStream) gets the raw bytes; it reads them through a
 * UTF-8 InputStreamReader (invalid bytes become U+FFFD, a BOM is not stripped by the JDK
 * decoder). One read per request, then query(agent, url) per URL: its API takes "the HTTP path
 * to the resource" or an absolute URL (it cuts that to path, query and fragment itself), so
 * URLs are passed as the case gives them. sitemaps: getSitemaps(). No crawl-delay: its only
 * per-agent crawl-delay is on the Grant that ask(agent, path) returns for one path, so the value
 * depends on the path asked about; there is no question the protocol's crawl-delay op can pose.
 *
 * <p>Known behaviour, measured with {@code robots-conformance matrix --adapters
 * java-panforge-robots} (claimed profile rfc9309: about 2070 pass, 165 fail, 34 to 43 error, 16
 * timeout of 2723 checks; the errors vary between runs because where java.util.regex overflows
 * the stack depends on the JIT's frame sizes):
 *
 * <ul>
 *   <li>encoding: rules and URLs are fully percent-decoded before matching, so %2F, %3F, %2A and
 *       %24 become "/", "?", "*" and "$" (an encoded "*" is a wildcard, an encoded "?" starts the
 *       query), and every hex-case or raw-vs-encoded spelling matches.
 *   <li>grouping: a Sitemap, Crawl-delay or unknown line between user-agent lines ends the
 *       user-agent list, so the lines before it get no rules.
 *   <li>syntax: a leading BOM is kept (the first line is lost); typo'd keys and lines without a
 *       colon are ignored, as RFC 9309 says (Google's reading accepts them: most of its extra
 *       failures under google).
 *   <li>limits: wildcard patterns compile to java.util.regex, which overflows the stack on long
 *       patterns (PatternSyntaxException or StackOverflowError: errors) and backtracks
 *       exponentially on hostile "*" runs (timeouts, despite its TimeLimitedMatcherFactory).
 *   <li>special-cases: /robots.txt is always allowed, compared case-insensitively.
 * </ul>
 */
public final class PanforgeAdapter implements RcProto.Adapter {
    public static void main(String[] args) throws IOException {
        PanforgeAdapter adapter = new PanforgeAdapter();
        if (args.length == 1 && args[0].equals("--ready")) {
            // The manifest's ready check: the classpath resolves and the parser answers once.
            adapter.decide(RcProto.WARM_UP_BODY, "FooBot", RcProto.WARM_UP_URLS);
            return;
        }
        RcProto.warmUp(() -> {
            try {
                adapter.decide(RcProto.WARM_UP_BODY, "FooBot", RcProto.WARM_UP_URLS);
                adapter.sitemaps(RcProto.WARM_UP_BODY);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        RcProto.serve(adapter);
    }

    @Override
    public JsonObject hello() {
        JsonObject h = new JsonObject();
        h.addProperty("name", "java-panforge-robots");
        String v = RobotsTxt.class.getPackage().getImplementationVersion();
        h.addProperty("version", "panforge robots " + (v != null ? v : "1.4.6"));
        h.addProperty("language", "java");
        h.addProperty("profile", "rfc9309");
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
