package rc;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One GET of a robots.txt URL the way a Java crawler does it with the JDK's HttpClient: no
 * proxy, redirects followed (Redirect.NORMAL) up to the five that RFC 9309 section 2.3.1.2 asks
 * crawlers to follow (jdk.httpclient.redirects.retrylimit, which counts the final request too, so
 * 6; its default of 5 stops after four redirects); past that the last 3xx answer is returned,
 * which the adapter hands to failedFetch as crawler-commons expects. `timeout`
 * seconds for the connect and for the response headers, and three times that for the whole
 * exchange (the JDK client has no deadline for reading a body, so a truncated body would hang
 * without one). It never interprets the answer.
 */
final class Http {
    /** Caps one body: far past the fixture's largest (past 500 KiB), so the parser sees it all. */
    static final int MAX_BODY = 32 << 20;

    /** Redirects followed before the last 3xx answer is returned: RFC 9309's "at least five". */
    static final int MAX_REDIRECTS = 5;

    static {
        // Read once, when the JDK's HTTP client classes load; an explicit -D setting wins.
        if (System.getProperty("jdk.httpclient.redirects.retrylimit") == null) {
            System.setProperty("jdk.httpclient.redirects.retrylimit", Integer.toString(MAX_REDIRECTS + 1));
        }
    }

    private Http() {}

    /** The final status, Content-Type (or null) and body. */
    record Response(int status, String contentType, byte[] body) {}

    static Response get(String url, double timeout) throws IOException, InterruptedException {
        Duration d = Duration.ofMillis(Math.max(1, (long) (timeout * 1000)));
        HttpClient client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(d)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(d).GET().build();
        long deadline = System.nanoTime() + 3 * d.toNanos();
        HttpResponse<InputStream> res = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = res.body()) {
            byte[] body = readBefore(in, deadline);
            if (body.length > MAX_BODY) {
                throw new IOException("body longer than the adapter's cap of " + MAX_BODY + " bytes");
            }
            return new Response(res.statusCode(), res.headers().firstValue("content-type").orElse(null), body);
        }
    }

    /** Up to MAX_BODY + 1 bytes of `in`, or HttpTimeoutException once `deadline` (nanoTime) passes. */
    private static byte[] readBefore(InputStream in, long deadline) throws IOException, InterruptedException {
        FutureTask<byte[]> read = new FutureTask<>(() -> in.readNBytes(MAX_BODY + 1));
        Thread reader = new Thread(read, "robots-body");
        reader.setDaemon(true);
        reader.start();
        try {
            return read.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            in.close();
            reader.interrupt();
            throw new HttpTimeoutException("body not complete within the fetch deadline");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getCause());
        }
    }
}
