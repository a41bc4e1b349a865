package rc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The protocol loop against a fake adapter: order, ids, per-URL errors, bad lines. */
class RcProtoTest {
    private static final RcProto.Adapter FAKE = new RcProto.Adapter() {
        @Override
        public JsonObject hello() {
            JsonObject h = new JsonObject();
            h.addProperty("name", "java-test");
            return h;
        }

        @Override
        public List<RcProto.Result> decide(byte[] robots, String agent, List<String> urls) {
            String body = new String(robots, StandardCharsets.UTF_8);
            if (!body.equals("User-agent: *\nDisallow: /x\n")) {
                throw new IllegalStateException("body mangled: " + body);
            }
            return RcProto.each(urls, u -> {
                if (u.equals("/boom")) {
                    throw new IllegalArgumentException("boom");
                }
                return !u.startsWith("/x");
            });
        }
    };

    private static String[] serve(String input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        RcProto.serve(FAKE, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out);
        return out.toString(StandardCharsets.UTF_8).split("\n");
    }

    @Test
    void answersInOrderWithIds() {
        String[] lines = serve(String.join("\n",
                "{\"id\":0,\"op\":\"hello\",\"protocol\":1}",
                "{\"id\":1,\"op\":\"decide\",\"robots\":\"VXNlci1hZ2VudDogKgpEaXNhbGxvdzogL3gK\",\"agent\":\"FooBot\",\"urls\":[\"/x\",\"/y\",\"/boom\"]}",
                "",
                "[1,2]",
                "{\"id\":\"s\",\"op\":\"sitemaps\",\"robots\":\"\"}",
                "{\"id\":3,\"op\":\"decide\",\"robots\":\"!!\",\"agent\":\"a\",\"urls\":[]}",
                "{\"id\":4,\"op\":\"decide\",\"agent\":\"a\",\"urls\":[]}") + "\n");
        assertEquals(6, lines.length, String.join("\n", lines));
        assertEquals("{\"id\":0,\"protocol\":1,\"name\":\"java-test\"}", lines[0]);
        assertEquals("{\"id\":1,\"results\":[{\"verdict\":\"disallowed\"},{\"verdict\":\"allowed\"},"
                + "{\"error\":\"IllegalArgumentException: boom\"}]}", lines[1]);
        assertEquals("{\"id\":null,\"error\":\"bad request: request is not a JSON object\"}", lines[2]);
        assertEquals("{\"id\":\"s\",\"unsupported\":\"op sitemaps\"}", lines[3]);
        assertTrue(lines[4].startsWith("{\"id\":3,\"error\":\"bad request: robots is not valid base64"), lines[4]);
        assertEquals("{\"id\":4,\"error\":\"bad request: missing or non-string 'robots'\"}", lines[5]);
    }

    @Test
    void joinsPathsOnly() {
        assertEquals("https://example.com/a?b", RcProto.joinUrl("/a?b"));
        assertEquals("https://example.com/a", RcProto.joinUrl("a"));
        assertEquals("http://h:8/p#f", RcProto.joinUrl("http://h:8/p#f"));
    }
}
