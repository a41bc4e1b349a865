#!/usr/bin/env python3
"""python-gpyrobotstxt: gpyrobotstxt 1.0.0 from PyPI, a pure-Python port of Google's C++
robots.txt parser and matcher, through adapters/ext/lib/rcproto.py.

Profile claimed: google (a port of Google's parser).

Input conventions:
- Body: raw bytes. one_agent_allowed_by_robots() accepts bytes (it encodes a str to UTF-8
  first) and its parser works on bytes, skipping a (partial) BOM and splitting on CR/LF
  itself; each line is then decoded with errors="replace" by the parser, not by the
  adapter: non_utf8_bodies = true.
- URLs: RobotsMatcher().one_agent_allowed_by_robots(body, agent, url) takes a full URL
  that, as in Google's API, should be %-encoded: paths are joined onto
  https://example.com textually, absolute URLs go as given, raw_non_ascii_urls = false.
  A fresh matcher per URL, as the probe advises (a matcher keeps per-call state).
- sitemaps: the port's low-level RobotsTxtParser(body, handler).parse() with a handler
  that collects handle_sitemap values in file order. No crawl-delay, token or robots-url
  API.

Known deviations (probe): `/robots.txt` not special; a raw UTF-8 path is compared byte for
byte (outside the API contract, not sent). Slow on large bodies (pure Python, re-parses
per query: about 150 ms per query on a 561 KiB body).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

from gpyrobotstxt.robots_cc import RobotsMatcher  # noqa: E402
from gpyrobotstxt.robotstxtparser import RobotsTxtParser  # noqa: E402


def allowed(robots, agent, url):
    return RobotsMatcher().one_agent_allowed_by_robots(robots, agent, rcproto.join_url(url))


class _Sitemaps:
    def __init__(self):
        self.found = []

    def handle_robots_start(self):
        pass

    def handle_robots_end(self):
        pass

    def handle_user_agent(self, line_num, value):
        pass

    def handle_allow(self, line_num, value):
        pass

    def handle_disallow(self, line_num, value):
        pass

    def handle_sitemap(self, line_num, value):
        self.found.append(value)

    def handle_unknown_action(self, line_num, action, value):
        pass


def sitemaps(robots):
    handler = _Sitemaps()
    RobotsTxtParser(robots, handler).parse()
    return handler.found


rcproto.serve(
    {
        "name": "python-gpyrobotstxt",
        "version": "gpyrobotstxt " + version("gpyrobotstxt"),
        "language": "python",
        "profile": "google",
        "body": "bytes",
    },
    allowed=allowed,
    sitemaps=sitemaps,
)
