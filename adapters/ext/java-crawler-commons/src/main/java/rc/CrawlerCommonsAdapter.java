package rc;

import com.google.gson.JsonObject;
import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import java.math.BigDecimal;
import java.util.List;

/**
 * java-crawler-commons and java-crawler-commons-prefix: crawler-commons 1.5 (Apache Nutch and
 * StormCrawler use it), SimpleRobotRulesParser, through {@link RcProto}. The first argument picks
 * the adapter:
 *
 * <ul>
 *   <li>{@code exact} (java-crawler-commons): the current API, RFC 9309 exact agent matching
 *       (the default since 1.4): {@code parseContent(url, bytes, "text/plain", names)} with the
 *       names from {@code sanitizeRobotNames(List.of(agent))} (lower-cased, "*" removed), as its
 *       javadoc tells callers to do;
 *   <li>{@code prefix} (java-crawler-commons-prefix): the legacy matching,
 *       {@code setExactUserAgentMatching(false)}, then the String overload
 *       {@code parseContent(url, bytes, "text/plain", agent)} (deprecated, not removed in 1.5),
 *       which lower-cases the agent and splits it at commas and whitespace: a robots.txt
 *       user-agent word that is a prefix of one of the crawler's words matches. This is what
 *       crawlers that pass their User-Agent header and switch exact matching off get. Note (1.5):
 *       the String overload alone no longer gives prefix matching, although its code passes
 *       exactUserAgentMatching=false down: handleUserAgent reads the parser's field, not that
 *       argument, so without the setter it matches exactly.
 * </ul>
 *
 * <p>Profile claimed: rfc9309 (its javadoc: "Robots.txt parser following RFC 9309, supporting the
 * Sitemap and Crawl-delay extensions").
 *
 * <p>Input conventions: the body is passed as raw bytes (the parser sniffs a UTF-8/UTF-16 BOM and
 * otherwise decodes UTF-8, invalid bytes becoming U+FFFD); one parse per request, with
 * https://example.com/robots.txt as the robots URL (it only resolves relative sitemaps).
 * isAllowed(String) needs an absolute URL: paths are joined textually onto https://example.com
 * (the parser itself percent-normalises the path). sitemaps: getSitemaps(). crawl-delay:
 * getCrawlDelay() in milliseconds, written in seconds; UNSET is null.
 *
 * <p>fetch (live): the parser does no I/O; a crawler GETs robots.txt and hands a 2xx body to
 * parseContent with the response's Content-Type (an HTML type switches on its tag stripping),
 * any other final status to failedFetch(status) (3xx after the redirect limit and 5xx: disallow
 * all, visits deferred; 4xx: allow all). {@link Http} does the GET with the JDK client. A network
 * error or timeout is an error: the parser gave no verdict.
 *
 * <p>Known behaviour, measured with {@code robots-conformance matrix --adapters NAME} (claimed
 * profile rfc9309; exact: 2326 pass, 76 fail, 12 error, 4 timeout of 2723 checks; prefix: 40
 * more failures, all agent matching):
 *
 * <ul>
 *   <li>syntax: lenient where RFC 9309 says to ignore a line: typo'd keys ("dissallow",
 *       "useragent"), keys with a prefix ("user agent"), lines without a colon ("Disallow /x")
 *       and NUL bytes are all read as rules; a body that looks like HTML has its tags stripped;
 *       a space inside a path ends the value.
 *   <li>ua-matching (exact): a user-agent value that is not a valid token is matched by its
 *       leading token ("googlebot/1.0", "googlebot*", "Foo Bar", "Mail.ru" bind googlebot, Foo,
 *       Mail), which RFC 9309 does not do and Google does only for some.
 *   <li>ua-matching (prefix): a robots.txt word that is a prefix of the crawler's name matches
 *       (ExampleBot binds ExampleBotX and Googlebot-News falls into Googlebot's group), and an
 *       empty "User-agent:" value is a prefix of every name, so that group binds every crawler.
 *   <li>wildcards: the matcher does not backtrack: "/*.php$" misses "/a.php.php", "/*x*bc"
 *       misses "/xbcbc".
 *   <li>google: it applies Google's "Allow: /dir/index.html also allows /dir/" rule under both
 *       readings; crawl-delay is kept in milliseconds ("1.50" comes back as 1.5).
 *   <li>limits: thousands of wildcard rules against a 10,000-byte URL miss the deadline.
 *   <li>fetch: 429 and other 4xx allow all; a 3xx after the redirect limit (and a 5xx)
 *       disallows all with visits deferred; network errors are errors (the parser has no
 *       verdict for them: the crawler decides).
 * </ul>
 */
public final class CrawlerCommonsAdapter implements RcProto.Adapter {
    private static final String ROBOTS_URL = RcProto.BASE + "/robots.txt";

    private final boolean prefix;

    private CrawlerCommonsAdapter(boolean prefix) {
        this.prefix = prefix;
    }

    public static void main(String[] args) {
        boolean ready = args.length == 2 && args[1].equals("--ready");
        if (!(args.length == 1 || ready) || !(args[0].equals("exact") || args[0].equals("prefix"))) {
            System.err.println("usage: CrawlerCommonsAdapter exact|prefix [--ready]");
            System.exit(2);
        }
        CrawlerCommonsAdapter adapter = new CrawlerCommonsAdapter(args[0].equals("prefix"));
        if (ready) {
            // The manifest's ready check: the classpath resolves and the parser answers once.
            adapter.decide(RcProto.WARM_UP_BODY, "FooBot", RcProto.WARM_UP_URLS);
            return;
        }
        RcProto.warmUp(() -> {
            adapter.decide(RcProto.WARM_UP_BODY, "FooBot", RcProto.WARM_UP_URLS);
            adapter.crawlDelay(RcProto.WARM_UP_BODY, "BarBot");
            adapter.sitemaps(RcProto.WARM_UP_BODY);
        });
        RcProto.serve(adapter);
    }

    @Override
    public JsonObject hello() {
        JsonObject h = new JsonObject();
        h.addProperty("name", prefix ? "java-crawler-commons-prefix" : "java-crawler-commons");
        String v = SimpleRobotRulesParser.class.getPackage().getImplementationVersion();
        h.addProperty("version", "crawler-commons " + (v != null ? v : "1.5"));
        h.addProperty("language", "java");
        h.addProperty("profile", "rfc9309");
        h.addProperty("body", "raw bytes (the parser decodes UTF-8, or UTF-16 after a BOM)");
        return h;
    }

    @SuppressWarnings("deprecation")
    private SimpleRobotRules parse(String url, byte[] robots, String contentType, String agent) {
        SimpleRobotRulesParser parser = new SimpleRobotRulesParser();
        if (prefix) {
            parser.setExactUserAgentMatching(false);
            return parser.parseContent(url, robots, contentType, agent);
        }
        return parser.parseContent(url, robots, contentType, SimpleRobotRulesParser.sanitizeRobotNames(List.of(agent)));
    }

    private static List<RcProto.Result> decide(BaseRobotRules rules, List<String> urls) {
        return RcProto.each(urls, u -> rules.isAllowed(RcProto.joinUrl(u)));
    }

    @Override
    public List<RcProto.Result> decide(byte[] robots, String agent, List<String> urls) {
        return decide(parse(ROBOTS_URL, robots, "text/plain", agent), urls);
    }

    @Override
    public List<String> sitemaps(byte[] robots) {
        // Sitemaps are file-wide: the parser collects every one whichever group it selects, so
        // the empty name list (the "*" group) serves both modes.
        return new SimpleRobotRulesParser().parseContent(ROBOTS_URL, robots, "text/plain", List.<String>of()).getSitemaps();
    }

    @Override
    public String crawlDelay(byte[] robots, String agent) {
        long ms = parse(ROBOTS_URL, robots, "text/plain", agent).getCrawlDelay();
        if (ms == BaseRobotRules.UNSET_CRAWL_DELAY) {
            return null;
        }
        return BigDecimal.valueOf(ms).movePointLeft(3).stripTrailingZeros().toPlainString();
    }

    @Override
    public List<RcProto.Result> fetch(String robotsUrl, String agent, List<String> urls, double timeout)
            throws Exception {
        Http.Response res = Http.get(robotsUrl, timeout);
        SimpleRobotRules rules = res.status() >= 200 && res.status() < 300
                ? parse(robotsUrl, res.body(), res.contentType(), agent)
                : new SimpleRobotRulesParser().failedFetch(res.status());
        return decide(rules, urls);
    }
}
