#!/usr/bin/env python3
"""python-urllib: CPython's standard-library urllib.robotparser (version = the running
interpreter's; 3.11.7 when written), through adapters/ext/lib/rcproto.py.

Profile claimed: rfc9309. The module documents the original 1994 robots.txt convention
(robotstxt.org/orig.html) plus Allow, Crawl-delay, Request-rate and Sitemap; of the two
readings this suite scores, the standard one is its nearest claim.

Input conventions:
- Body: bytes decoded as UTF-8 with errors="replace" (BOM kept as U+FEFF), then
  str.splitlines(), which is what RobotFileParser.read() does after its own decode. read()
  decodes strictly and so raises on invalid UTF-8, and a surrogateescape'd str makes
  RuleLine's quote() raise UnicodeEncodeError: the parser cannot see raw bytes, hence
  non_utf8_bodies = false.
- URLs: passed to can_fetch(agent, url) as given; it takes absolute URLs and paths alike
  and percent-encodes non-ASCII itself.
- sitemaps: site_maps() (None means none); crawl-delay: crawl_delay(agent) (an int).
- fetch: the module's own fetch, RobotFileParser().set_url(robots_url) and .read(), then
  can_fetch(agent, url) per URL. read() takes no timeout, so the harness's timeout is set as
  the socket default, as a crawler would. read() maps 401/403 to "disallow all" and any
  other 4xx to "allow all"; on 5xx (and a redirect loop) it sets nothing, so can_fetch
  answers False; network errors (timeouts, resets, bad chunking) are raised, not decided:
  they come back as errors.

Known deviations (probe, adapters-probe.md): first match in file order instead of longest
match; no `*`/`$` wildcards; only the first matching group is used; BOM kept in the first
field name; `/robots.txt` not special; substring agent matching; crawl-delay only when it
is all digits (`0.5` gives None).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
import platform  # noqa: E402
import socket  # noqa: E402
import urllib.robotparser  # noqa: E402


def parse(robots, agent=None):
    rp = urllib.robotparser.RobotFileParser()
    rp.parse(rcproto.utf8(robots, "replace").splitlines())
    return rp


def fetch(robots_url, agent, urls, timeout):
    socket.setdefaulttimeout(timeout)
    rp = urllib.robotparser.RobotFileParser()
    rp.set_url(robots_url)
    rp.read()
    return rcproto.each_url(rp.can_fetch, agent, urls)


rcproto.serve(
    {
        "name": "python-urllib",
        "version": "urllib.robotparser %s (CPython stdlib)" % platform.python_version(),
        "language": "python",
        "profile": "rfc9309",
        "body": "utf-8, errors=replace, str.splitlines()",
    },
    parse=parse,
    allowed=lambda rp, agent, url: rp.can_fetch(agent, url),
    sitemaps=lambda robots: parse(robots).site_maps(),
    crawl_delay=lambda robots, agent: parse(robots).crawl_delay(agent),
    fetch=fetch,
)
