#!/usr/bin/env python3
"""python-jwm-robotstxt: jwm.robotstxt 1.0.8 from PyPI, a pybind11 wrapper of Google's C++
robots.txt library (its README points to upstream commit a732377), through
adapters/ext/lib/rcproto.py.

Profile claimed: google (it is Google's parser).

Input conventions:
- Body: raw bytes. The binding declares `str` but, like every pybind11 std::string
  argument, also accepts bytes and passes them through untouched, so BOMs, CRs and invalid
  UTF-8 reach the C++ parser as they are: non_utf8_bodies = true. (A str would have to be
  valid Unicode; bytes are what the C++ API takes.)
- URLs: RobotsMatcher.OneAgentAllowedByRobots(body, agent, url) wants a full URL that is
  already %-encoded ("'url' must be %-encoded according to RFC3986"): paths are joined
  onto https://example.com textually, absolute URLs go as given, and the manifest says
  raw_non_ascii_urls = false. A fresh matcher per request.
- sitemaps: the library's low-level ParseRobotsTxt() with a handler that collects
  HandleSitemap values in file order (values as written; the binding decodes them as
  UTF-8, so a sitemap line with invalid UTF-8 errors the request). Google's library has no
  crawl-delay, token or robots-url API.

Known deviations (probe): `/robots.txt` is not special (the Google library leaves it to the
crawler); a raw UTF-8 path is compared byte for byte with the percent-encoded rule (the
API contract excludes such URLs, hence raw_non_ascii_urls = false). About 20x slower per
parse than fast-robotstxt on a 561 KiB body (38 ms per query there).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

from jwm.robotstxt import googlebot  # noqa: E402


def decide(robots, agent, urls):
    matcher = googlebot.RobotsMatcher()
    out = []
    for url in urls:
        try:
            out.append(matcher.OneAgentAllowedByRobots(robots, agent, rcproto.join_url(url)))
        except Exception as e:
            out.append(e)
    return out


class _Sitemaps(googlebot.RobotsParseHandler):
    def __init__(self):
        super().__init__()
        self.found = []

    def HandleRobotsStart(self):
        pass

    def HandleRobotsEnd(self):
        pass

    def HandleUserAgent(self, line_num, value):
        pass

    def HandleAllow(self, line_num, value):
        pass

    def HandleDisallow(self, line_num, value):
        pass

    def HandleSitemap(self, line_num, value):
        self.found.append(value)

    def HandleUnknownAction(self, line_num, action, value):
        pass

    def ReportLineMetadata(self, line_num, metadata):
        pass


def sitemaps(robots):
    handler = _Sitemaps()
    googlebot.ParseRobotsTxt(robots, handler)
    return handler.found


rcproto.serve(
    {
        "name": "python-jwm-robotstxt",
        "version": "jwm.robotstxt " + version("jwm.robotstxt"),
        "language": "python",
        "profile": "google",
        "body": "bytes",
    },
    decide=decide,
    sitemaps=sitemaps,
)
