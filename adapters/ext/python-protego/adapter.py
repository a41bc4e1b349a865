#!/usr/bin/env python3
"""python-protego: protego 0.7.0 from PyPI (Scrapy's robots.txt parser, pure Python), through
adapters/ext/lib/rcproto.py.

Profile claimed: rfc9309 (its README: "implements the parsing and URL matching rules of
RFC 9309", plus the Crawl-delay, Request-rate, Visit-time and Host extensions).

Input conventions:
- Body: Protego.parse() takes only str. Bytes are decoded as UTF-8 with errors="replace"
  (BOM kept as U+FEFF), as its README's `Protego.parse(r.text)` does. A surrogateescape'd
  str makes its pattern quoting raise UnicodeEncodeError, so the parser cannot see raw
  bytes: non_utf8_bodies = false.
- URLs: can_fetch(url, agent) (note the order) takes absolute URLs and paths as given.
- sitemaps: the `sitemaps` iterator; crawl-delay: crawl_delay(agent) (a float, written as
  "5" or "0.5").

Known deviations (probe): a leading BOM stays in the first field name (U+FEFF is not
stripped), so a body that starts with one loses its first line; agent matching is by
substring of the caller's string (a full User-Agent header matches `FooBot` groups).
Requires Python >= 3.10.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

from protego import Protego  # noqa: E402


def parse(robots, agent=None):
    return Protego.parse(rcproto.utf8(robots, "replace"))


rcproto.serve(
    {
        "name": "python-protego",
        "version": "protego " + version("protego"),
        "language": "python",
        "profile": "rfc9309",
        "body": "utf-8, errors=replace",
    },
    parse=parse,
    allowed=lambda p, agent, url: p.can_fetch(url, agent),
    sitemaps=lambda robots: list(parse(robots).sitemaps),
    crawl_delay=lambda robots, agent: parse(robots).crawl_delay(agent),
)
