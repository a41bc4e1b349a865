#!/usr/bin/env python3
"""python-scrapy (and python-scrapy-urllib, python-scrapy-rerp, python-scrapy-oracle): the Scrapy crawler
framework (scrapy 2.19.0, Twisted 26.10.0, pinned in requirements.txt) driven end to end with
ROBOTSTXT_OBEY = True, through adapters/ext/lib/rcproto.py.

`adapter.py` alone runs Scrapy's default robots.txt parser, Protego 0.7.0
(scrapy.robotstxt.ProtegoRobotParser). `--parser python` runs PythonRobotParser
(urllib.robotparser of the running CPython), `--parser rerp` runs RerpRobotParser
(robotexclusionrulesparser 1.7.1): the other ROBOTSTXT_PARSER backends Scrapy ships, as the
adapters python-scrapy-urllib and python-scrapy-rerp. Scrapy 2.19 ships no other backend
(the reppy one was removed). `--parser oracle` runs this repository's own backend,
robots_oracle.scrapy.RobotParser (bindings/python), as the adapter python-scrapy-oracle: it
gets the body's bytes as downloaded (the oracle decodes nothing first) and the request's
User-Agent header, which is the check's agent here.

Profile claimed: that of the parser (Protego and urllib: rfc9309, as python-protego and
python-urllib claim; robotexclusionrulesparser: google, as python-robotexclusionrulesparser;
the oracle's backend: rfc9309, its default profile).

What is observed. One Twisted reactor (Scrapy's default asyncio reactor) runs for the whole
process; each request builds a NEW Crawler (so a new RobotsTxtMiddleware, whose robots.txt
cache is per middleware instance: nothing leaks between checks) and a spider that requests
every URL of the check (dont_filter, so all reach the middleware chain). A marker downloader
middleware sits right after RobotsTxtMiddleware (priority 101, it is 100): the verdict for a
URL is whether its request got past RobotsTxtMiddleware, i.e.
  - the marker saw the request                 -> "allowed" (the request then goes on to the
    fixture; the page's own status, 404 for an unscripted page, is not the verdict);
  - the spider's errback got IgnoreRequest("Forbidden by robots.txt") -> "disallowed";
  - anything else (the crawl failed)          -> that URL's error; in particular a URL longer
    than URLLENGTH_LIMIT (2083) is dropped by UrlLengthMiddleware, a spider middleware, before
    robots.txt is consulted, and is reported as such.

Configuration (the settings a crawl of the fixture needs, everything else Scrapy's default):
USER_AGENT = the check's agent (the middleware matches groups against the request's
User-Agent header when ROBOTSTXT_USER_AGENT is unset, and sends it); DOWNLOAD_TIMEOUT = the
request's timeout; RETRY_ENABLED = False (by default Scrapy retries 5xx, 408, 429 and network
errors twice, which would triple the time of a failing check; with retries the robots.txt
outcome is the same, only later); TELNETCONSOLE_ENABLED = False; LOG_LEVEL = ERROR, to stderr.
Proxies: rcproto removes proxy variables before the first crawl, so HttpProxyMiddleware has
none.

Fetch layer, as measured against the fixture server (matrix --adapters python-scrapy fetch;
the mechanism is RobotsTxtMiddleware.robot_parser): the robots.txt request goes through the
downloader middlewares and the download handler, NOT through HttpErrorMiddleware (a spider
middleware), so
  - ANY status's body is parsed as robots.txt: 2xx (200, 203, 206), 4xx and 5xx alike (a
    600 allows all). A 404 or 403 serving rules is obeyed (fails R2.3.1.3-2); an error page
    without rules allows everything, so 500, 502, 503, 504 and 599 ALLOW ALL (fails R2.3.1.4-1: MUST
    disallow). 204 (no body) allows all.
  - 3xx: followed by RedirectMiddleware (301/302/303/307/308, relative Location, across
    hosts, 6 hops); a loop ends at REDIRECT_MAX_TIMES = 20 with IgnoreRequest, which the
    middleware treats as no robots.txt: allow all. A redirect to a 503 allows all.
  - a meta refresh in an HTML robots.txt IS followed (MetaRefreshMiddleware, on by default),
    and the target's rules are used: Google documents that it does not follow one.
  - a network error (timeout, dropped, refused, truncated, bad chunking, not HTTP) is logged
    and the parser becomes None: every URL of that host is allowed.
  - bodies: decoded as UTF-8 (invalid bytes dropped, BOM dropped) whatever the Content-Type
    (text/html, octet-stream, none); every rule past 500 KiB is used (DOWNLOAD_MAXSIZE 1 GiB).

A race, found while writing this adapter and kept out of the verdicts: Scrapy's default
CONCURRENT_REQUESTS = 16 lets several requests to one host reach RobotsTxtMiddleware while its
robots.txt is still downloading. The first one downloads it; the others await the same
Deferred through maybe_deferred_to_future, and Twisted's Deferred.asFuture callback returns
None, so only the first waiter gets the parser: the third and later requests see None and
are ALLOWED whatever robots.txt says (with "Disallow: /x", /x, /x1, /x2, /x3 in one crawl
give disallowed, disallowed, allowed, allowed). CONCURRENT_REQUESTS = 1 here makes every
verdict deterministic; RC_SCRAPY_CONCURRENT=16 in the environment reproduces the race.

Decide: answered by serving the body from a loopback HTTP server of this process
(127.0.0.1, ephemeral port, 200 text/plain) and crawling each URL's path and query on it, so
it is Scrapy's own path end to end (Request's URL normalisation, safe_url_string, included).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)

import argparse  # noqa: E402
import http.server  # noqa: E402
import logging  # noqa: E402
import platform  # noqa: E402
import socketserver  # noqa: E402
import threading  # noqa: E402

from scrapy.utils.reactor import install_reactor  # noqa: E402

install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")

from twisted.internet import reactor, threads  # noqa: E402

import scrapy  # noqa: E402
import twisted  # noqa: E402
from scrapy.crawler import CrawlerRunner  # noqa: E402
from scrapy.exceptions import IgnoreRequest  # noqa: E402
from scrapy.settings import default_settings  # noqa: E402

BACKENDS = {
    "protego": ("python-scrapy", "scrapy.robotstxt.ProtegoRobotParser", "rfc9309", "protego"),
    "python": ("python-scrapy-urllib", "scrapy.robotstxt.PythonRobotParser", "rfc9309", None),
    "rerp": ("python-scrapy-rerp", "scrapy.robotstxt.RerpRobotParser", "google",
             "robotexclusionrulesparser"),
    "oracle": ("python-scrapy-oracle", "robots_oracle.scrapy.RobotParser", "rfc9309",
               "robots-oracle"),
}

# The longest a crawl may take before the adapter cancels it and answers an error (the
# harness's own deadline is shorter; this bounds a crawl when the adapter is run by hand).
CRAWL_LIMIT = 30.0

# Scrapy's UrlLengthMiddleware (a spider middleware, on by default) drops longer URLs
# silently, before any downloader middleware sees them.
URL_LIMIT = default_settings.URLLENGTH_LIMIT

# Per-crawl bookkeeping, keyed by the crawl's number (its crawler's RC_CRAWL setting).
_CRAWLS = {}
_NEXT = [0]


class Marker:
    """Downloader middleware right after RobotsTxtMiddleware: records each request of its
    crawl that got past it. It only observes: it never answers, changes or drops a request."""

    def __init__(self, key):
        self.key = key

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler.settings.get("RC_CRAWL"))

    def process_request(self, request, spider=None):
        crawl = _CRAWLS.get(self.key)
        if crawl is None:
            return None
        if request.meta.get("dont_obey_robotstxt"):
            crawl["robots_requests"] += 1
        elif "rc_index" in request.meta:
            crawl["passed"].add(request.meta["rc_index"])
        return None


class CheckSpider(scrapy.Spider):
    name = "robots-conformance"

    def __init__(self, rc_crawl=None, urls=(), **kwargs):
        super().__init__(**kwargs)
        self.rc_crawl = rc_crawl
        self.rc_urls = list(urls)

    async def start(self):
        for i, url in enumerate(self.rc_urls):
            yield scrapy.Request(url, callback=self.done, errback=self.failed, dont_filter=True,
                                 meta={"rc_index": i})

    def done(self, response):
        return None

    def failed(self, failure):
        i = failure.request.meta.get("rc_index") if hasattr(failure, "request") else None
        crawl = _CRAWLS.get(self.rc_crawl)
        if i is None or crawl is None:
            return None
        if failure.check(IgnoreRequest):
            crawl["ignored"][i] = str(failure.value)
        else:
            crawl["failed"][i] = "%s: %s" % (type(failure.value).__name__, failure.value)
        return None


def _settings(key, parser, agent, timeout):
    return {
        "RC_CRAWL": key,
        "ROBOTSTXT_OBEY": True,
        "ROBOTSTXT_PARSER": parser,
        "USER_AGENT": agent,
        "DOWNLOAD_TIMEOUT": timeout,
        "RETRY_ENABLED": False,
        "TELNETCONSOLE_ENABLED": False,
        "REMOTE_CONTROL_ENABLED": False,
        # One request in the middleware chain at a time (see the header: Scrapy's
        # concurrent waiters for one robots.txt race). RC_SCRAPY_CONCURRENT=16 shows it.
        "CONCURRENT_REQUESTS": int(os.environ.get("RC_SCRAPY_CONCURRENT", "1")),
        "LOG_ENABLED": os.environ.get("RC_SCRAPY_LOG") == "1",
        "DOWNLOADER_MIDDLEWARES": {__name__ + ".Marker": 101},
        "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
    }


def _crawl(parser, agent, urls, timeout):
    """Runs on the reactor thread: one fresh crawler for `urls`; fires with the verdicts."""
    _NEXT[0] += 1
    key = _NEXT[0]
    crawl = {"passed": set(), "ignored": {}, "failed": {}, "robots_requests": 0}
    _CRAWLS[key] = crawl
    runner = CrawlerRunner(_settings(key, parser, agent, timeout))
    d = runner.crawl(CheckSpider, rc_crawl=key, urls=urls)

    def verdicts(_):
        out = []
        for i in range(len(urls)):
            if i in crawl["passed"]:
                out.append(True)
            elif i in crawl["ignored"] and "robots.txt" in crawl["ignored"][i]:
                out.append(False)
            elif i in crawl["ignored"]:
                out.append(RuntimeError("ignored, not by robots.txt: " + crawl["ignored"][i]))
            elif i in crawl["failed"]:
                out.append(RuntimeError("request failed before RobotsTxtMiddleware let it "
                                        "through: " + crawl["failed"][i]))
            elif len(urls[i]) > URL_LIMIT:
                out.append(RuntimeError(
                    "Scrapy dropped the request before robots.txt was asked: UrlLengthMiddleware "
                    "drops URLs longer than URLLENGTH_LIMIT (%d), this one has %d characters"
                    % (URL_LIMIT, len(urls[i]))))
            else:
                out.append(RuntimeError("Scrapy neither sent the request nor reported it "
                                        "(robots.txt requests made: %d)"
                                        % crawl["robots_requests"]))
        return out

    def forget(result):
        _CRAWLS.pop(key, None)
        return result

    d.addTimeout(CRAWL_LIMIT, reactor)
    d.addCallback(verdicts)
    d.addBoth(forget)
    return d


def _blocking(parser, agent, urls, timeout):
    return threads.blockingCallFromThread(reactor, _crawl, parser, agent, urls, timeout)


class _Body(http.server.BaseHTTPRequestHandler):
    """The decide server: /robots.txt is the current body, every other path 404."""

    body = b""
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        if self.path.split("?", 1)[0] == "/robots.txt":
            data, status = _Body.body, 200
        else:
            data, status = b"not found\n", 404
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


class _Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    """http.server's ThreadingHTTPServer without its server_bind, which looks up the fully
    qualified name of 127.0.0.1 (a DNS query, seconds with no resolver)."""

    daemon_threads = True


def _start_body_server():
    server = _Server(("127.0.0.1", 0), _Body)
    threading.Thread(target=server.serve_forever, name="decide-server", daemon=True).start()
    return server


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--parser", choices=sorted(BACKENDS), default="protego")
    # Named by python-scrapy-oracle's run command so that the answer cache is keyed by the
    # oracle's build; never read.
    ap.add_argument("--oracle-build", help=argparse.SUPPRESS)
    args = ap.parse_args()
    name, parser, profile, lib = BACKENDS[args.parser]
    if lib is None:
        libv = "urllib.robotparser (CPython %s)" % platform.python_version()
    else:
        from importlib.metadata import version as dist_version
        libv = "%s %s" % (lib, dist_version(lib))
    debug = os.environ.get("RC_SCRAPY_LOG") == "1"
    logging.basicConfig(stream=sys.stderr, level=logging.DEBUG if debug else logging.ERROR)
    body_server = _start_body_server()
    base = "http://127.0.0.1:%d" % body_server.server_address[1]

    def fetch(robots_url, agent, urls, timeout):
        return _blocking(parser, agent, urls, timeout)

    def decide(robots, agent, urls):
        _Body.body = robots
        live = [base + rcproto.path_of(u) for u in urls]
        return _blocking(parser, agent, live, 5.0)

    def serve():
        try:
            # One crawl before hello: Scrapy imports much of itself lazily on the first crawl
            # (about a second under load), which would otherwise overrun the first request's
            # deadline, every time the harness restarts the process.
            try:
                _Body.body = b""
                _blocking(parser, "warm-up", [base + "/"], 5.0)
            except Exception as e:  # the first real request will show what is wrong
                print("python-scrapy: warm-up crawl failed: %s" % e, file=sys.stderr)
            rcproto.serve(
                {
                    "name": name,
                    "version": "scrapy %s + %s (Twisted %s)" % (scrapy.__version__, libv,
                                                                twisted.__version__),
                    "language": "python",
                    "profile": profile,
                    "body": "the crawler's: UTF-8 with invalid bytes and a BOM dropped",
                },
                decide=decide,
                fetch=fetch,
            )
        finally:
            reactor.callFromThread(reactor.stop)

    threading.Thread(target=serve, name="protocol", daemon=True).start()
    reactor.run(installSignalHandlers=False)
    body_server.shutdown()


if __name__ == "__main__":
    main()
