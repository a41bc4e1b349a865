#!/usr/bin/env python3
"""python-robotspy: robotspy 0.13.0 from PyPI (import name `robots`, pure Python), through
adapters/ext/lib/rcproto.py.

Profile claimed: rfc9309 (its README: "It (mostly) follows the specs from the RFC 9309").

Input conventions:
- Body: RobotsParser.from_string() takes str. Bytes are decoded as UTF-8 with
  errors="surrogateescape" (BOM kept as U+FEFF): the parser compares rule text as strings
  and never re-encodes it, so invalid bytes stay observable as lone surrogates:
  non_utf8_bodies = true. (Its own from_uri() decodes line by line with "utf-8-sig", which
  strips a BOM, and treats a body with invalid UTF-8 as allow-all; from_string(), the API
  for a body in hand, does neither.)
- URLs: can_fetch(agent, url) takes absolute URLs and paths as given.
- sitemaps: the `sitemaps` property (None means none); valid-token: the static
  RobotsParser.is_agent_valid(token). No crawl-delay API (its README says it does not
  support crawl-delay).
- fetch: the package's own RobotsParser.from_uri(robots_url, timeout), then can_fetch per
  URL. from_uri maps 401/403 to "disallow all", other 4xx to "allow all", 5xx and URLError
  to "disallow all", and a body that is not UTF-8 to "allow all"; errors raised below
  urllib's URLError (a dropped connection) propagate and come back as errors.

Known deviations (probe): a leading BOM stays in the first field name; CR-only line
endings are not split (from_string splits on "\n" only); `/robots.txt` not special; a
URL whose host differs from the parser's (unset here) host is not special.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

from robots import RobotsParser  # noqa: E402


def parse(robots, agent=None):
    return RobotsParser.from_string(rcproto.utf8(robots, "surrogateescape"))


def fetch(robots_url, agent, urls, timeout):
    p = RobotsParser.from_uri(robots_url, timeout=timeout)
    return rcproto.each_url(p.can_fetch, agent, urls)


rcproto.serve(
    {
        "name": "python-robotspy",
        "version": "robotspy " + version("robotspy"),
        "language": "python",
        "profile": "rfc9309",
        "body": "utf-8, errors=surrogateescape",
    },
    parse=parse,
    allowed=lambda p, agent, url: p.can_fetch(agent, url),
    sitemaps=lambda robots: parse(robots).sitemaps,
    valid_token=RobotsParser.is_agent_valid,
    fetch=fetch,
)
