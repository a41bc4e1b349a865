package rc;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The adapter protocol loop (adapters/PROTOCOL.md, version 1) for Java adapters: the counterpart
 * of adapters/ext/lib/rcproto.py. It carries requests to an {@link Adapter} and answers back --
 * hello, base64, JSON, per-URL error capture, unsupported operations, flushing, exit on EOF --
 * and must never interpret robots.txt itself.
 *
 * <p>Stdout hygiene: {@link #serve} keeps the real stdout for answers and points System.out at
 * stderr, so a library that prints cannot corrupt the protocol stream. A request line is capped
 * at {@link #MAX_LINE} bytes (a longer one is answered with an error and skipped).
 */
public final class RcProto {
    /** The protocol version spoken. */
    public static final int PROTOCOL = 1;
    /** Cap on one request line. */
    public static final int MAX_LINE = 64 << 20;
    /** Where paths are joined for parsers that need an absolute URL. */
    public static final String BASE = "https://example.com";

    private RcProto() {}

    /** Thrown by a callback to answer the whole request with {"unsupported": why}. */
    public static final class Unsupported extends RuntimeException {
        public Unsupported(String why) {
            super(why);
        }
    }

    /** A request the loop cannot read. */
    static final class BadRequest extends RuntimeException {
        BadRequest(String why) {
            super(why);
        }
    }

    /** One URL's answer: a verdict, or the parser's error. */
    public record Result(Boolean allowed, String error) {
        public static Result of(boolean allowed) {
            return new Result(allowed, null);
        }

        public static Result error(Throwable t) {
            return new Result(null, message(t));
        }
    }

    /** What an adapter can answer; a default method answers "unsupported". */
    public interface Adapter {
        JsonObject hello();

        List<Result> decide(byte[] robots, String agent, List<String> urls) throws Exception;

        default List<String> sitemaps(byte[] robots) throws Exception {
            throw new Unsupported("op sitemaps");
        }

        /** The agent's crawl-delay as text, or null for none. */
        default String crawlDelay(byte[] robots, String agent) throws Exception {
            throw new Unsupported("op crawl-delay");
        }

        /** Fetches robotsUrl (a loopback fixture URL), then answers each URL as decide does. */
        default List<Result> fetch(String robotsUrl, String agent, List<String> urls, double timeout)
                throws Exception {
            throw new Unsupported("op fetch");
        }
    }

    /** A URL checker that may throw: its exception becomes that URL's error. */
    public interface Check {
        boolean allowed(String url) throws Exception;
    }

    /** check.allowed(url) for each URL; an exception (or error) becomes that URL's answer. */
    public static List<Result> each(List<String> urls, Check check) {
        List<Result> out = new ArrayList<>(urls.size());
        for (String u : urls) {
            try {
                out.add(Result.of(check.allowed(u)));
            } catch (Unsupported e) {
                throw e;
            } catch (Throwable t) {
                out.add(Result.error(t));
            }
        }
        return out;
    }

    /** url itself if absolute, else BASE + the path (textually, no normalisation). */
    public static String joinUrl(String url) {
        if (url.matches("^[A-Za-z][A-Za-z0-9+.\\-]*://.*")) {
            return url;
        }
        return BASE + (url.startsWith("/") ? url : "/" + url);
    }

    /** "Type: message", with the first cause that has a message when this one has none. */
    static String message(Throwable t) {
        String name = t.getClass().getSimpleName();
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            String m = c.getMessage();
            if (m != null && !m.isEmpty()) {
                return c == t ? name + ": " + m : name + ": " + c.getClass().getSimpleName() + ": " + m;
            }
        }
        return name;
    }

    /** A small robots.txt for {@link #warmUp}: groups, wildcards, anchors, escapes, sitemaps. */
    public static final byte[] WARM_UP_BODY = ("User-agent: FooBot\nUser-agent: BarBot\nDisallow: /private\n"
            + "Allow: /private/open*.html$\nDisallow: /*.php$\nCrawl-delay: 2\n\nUser-agent: *\n"
            + "Disallow: /%E3%83%84/\nAllow: /\nSitemap: https://example.com/s.xml\n").getBytes(StandardCharsets.UTF_8);

    /** Paths for {@link #warmUp}. */
    public static final List<String> WARM_UP_URLS = List.of("/private/x", "/private/open1.html", "/a.php",
            "/a.php?x", "/%E3%83%84/x", "https://example.com/b", "/robots.txt", "/");

    /**
     * Runs {@code round} a few times before the loop starts, so that the JVM has loaded and
     * first run the parser's code before the first real request (whose deadline is about a
     * second) rather than during it. Kept small (20 rounds, at most 0.3 s): on a loaded machine
     * every CPU-second spent here delays hello, which the harness waits 20 s for, and the JIT
     * finishes warming up on the real requests anyway. The answers are thrown away: warming up
     * must never change one.
     */
    public static void warmUp(Runnable round) {
        long until = System.nanoTime() + 300_000_000L;
        for (int i = 0; i < 20 && System.nanoTime() < until; i++) {
            try {
                round.run();
            } catch (RuntimeException e) {
                return;
            }
        }
    }

    /** Runs the loop on stdin and the real stdout until stdin closes. */
    public static void serve(Adapter adapter) {
        OutputStream out = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        serve(adapter, System.in, out);
    }

    /** Runs the loop on the given streams. */
    public static void serve(Adapter adapter, InputStream in, OutputStream out) {
        Gson gson = new GsonBuilder().disableHtmlEscaping().serializeNulls().create();
        BufferedInputStream input = new BufferedInputStream(in, 1 << 16);
        try {
            while (true) {
                byte[] line = readLine(input);
                if (line == null) {
                    return;
                }
                JsonObject reply;
                if (line.length == 1 && line[0] == 0) {
                    reply = new JsonObject();
                    reply.add("id", JsonNull.INSTANCE);
                    reply.addProperty("error", "bad request: line longer than " + MAX_LINE + " bytes");
                } else {
                    String text = new String(line, StandardCharsets.UTF_8);
                    if (text.isBlank()) {
                        continue;
                    }
                    reply = answerLine(adapter, text);
                }
                out.write((gson.toJson(reply) + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException e) {
            // The harness closed a stream: nothing left to answer.
        }
    }

    /** One line without its newline; null at EOF; {0} for a line past MAX_LINE. */
    private static byte[] readLine(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        boolean tooLong = false;
        int c;
        boolean any = false;
        while ((c = in.read()) != -1) {
            any = true;
            if (c == '\n') {
                break;
            }
            if (buf.size() >= MAX_LINE) {
                tooLong = true;
                buf.reset();
            }
            if (!tooLong) {
                buf.write(c);
            }
        }
        if (!any) {
            return null;
        }
        return tooLong ? new byte[] {0} : buf.toByteArray();
    }

    private static JsonObject answerLine(Adapter adapter, String text) {
        JsonObject reply = new JsonObject();
        JsonElement id = JsonNull.INSTANCE;
        try {
            JsonElement parsed;
            try {
                parsed = JsonParser.parseString(text);
            } catch (RuntimeException e) {
                throw new BadRequest("request is not JSON: " + message(e));
            }
            if (!parsed.isJsonObject()) {
                throw new BadRequest("request is not a JSON object");
            }
            JsonObject req = parsed.getAsJsonObject();
            if (req.has("id")) {
                id = req.get("id");
            }
            reply.add("id", id);
            answer(adapter, req, reply);
        } catch (Unsupported e) {
            reply = withId(id);
            reply.addProperty("unsupported", e.getMessage());
        } catch (BadRequest e) {
            reply = withId(id);
            reply.addProperty("error", "bad request: " + e.getMessage());
        } catch (Throwable t) {
            t.printStackTrace(System.err);
            reply = withId(id);
            reply.addProperty("error", message(t));
        }
        return reply;
    }

    private static JsonObject withId(JsonElement id) {
        JsonObject o = new JsonObject();
        o.add("id", id);
        return o;
    }

    private static String string(JsonObject req, String key) {
        JsonElement v = req.get(key);
        if (v == null || !v.isJsonPrimitive() || !v.getAsJsonPrimitive().isString()) {
            throw new BadRequest("missing or non-string '" + key + "'");
        }
        return v.getAsString();
    }

    private static List<String> urls(JsonObject req) {
        JsonElement v = req.get("urls");
        if (v == null || !v.isJsonArray()) {
            throw new BadRequest("'urls' must be a list");
        }
        List<String> out = new ArrayList<>();
        for (JsonElement e : v.getAsJsonArray()) {
            if (!e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
                throw new BadRequest("'urls' must be a list of strings");
            }
            out.add(e.getAsString());
        }
        return out;
    }

    private static byte[] robots(JsonObject req) {
        try {
            return Base64.getDecoder().decode(string(req, "robots"));
        } catch (IllegalArgumentException e) {
            throw new BadRequest("robots is not valid base64: " + e.getMessage());
        }
    }

    private static void answer(Adapter adapter, JsonObject req, JsonObject reply) throws Exception {
        String op = string(req, "op");
        switch (op) {
            case "hello" -> {
                reply.addProperty("protocol", PROTOCOL);
                adapter.hello().entrySet().forEach(e -> reply.add(e.getKey(), e.getValue()));
            }
            case "decide" -> {
                byte[] body = robots(req);
                String agent = string(req, "agent");
                List<String> urls = urls(req);
                results(reply, adapter.decide(body, agent, urls), urls.size());
            }
            case "fetch" -> {
                String robotsUrl = string(req, "robots_url");
                String agent = string(req, "agent");
                List<String> urls = urls(req);
                JsonElement t = req.get("timeout");
                double timeout = t != null && t.isJsonPrimitive() && t.getAsJsonPrimitive().isNumber()
                        ? t.getAsDouble() : 1.0;
                results(reply, adapter.fetch(robotsUrl, agent, urls, timeout), urls.size());
            }
            case "sitemaps" -> {
                JsonArray list = new JsonArray();
                List<String> value = adapter.sitemaps(robots(req));
                if (value != null) {
                    value.forEach(list::add);
                }
                reply.add("value", list);
            }
            case "crawl-delay" -> {
                byte[] body = robots(req);
                reply.addProperty("value", adapter.crawlDelay(body, string(req, "agent")));
            }
            default -> throw new Unsupported("op " + op);
        }
    }

    private static void results(JsonObject reply, List<Result> results, int n) {
        if (results.size() != n) {
            throw new IllegalStateException("adapter gave " + results.size() + " results for " + n + " URLs");
        }
        JsonArray list = new JsonArray();
        for (Result r : results) {
            JsonObject o = new JsonObject();
            if (r.error() != null || r.allowed() == null) {
                o.addProperty("error", r.error() != null ? r.error() : "no verdict");
            } else {
                o.addProperty("verdict", r.allowed() ? "allowed" : "disallowed");
            }
            list.add(o);
        }
        reply.add("results", list);
    }
}
