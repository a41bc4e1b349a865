#!/usr/bin/env python3
"""python-fast-robotstxt: fast-robotstxt 1.1.0 from PyPI (import name `robotstxt`): ctypes
bindings to librobots.so, Google's C++ robots.txt library as forked by nzrsky/robotstxt
(with crawl-delay, request-rate and content-signal additions and the ada URL library),
through adapters/ext/lib/rcproto.py.

Profile claimed: google (Google's parser; its README also says "RFC 9309 compliant").

Input conventions:
- Body: RobotsMatcher.is_allowed() takes str and encodes it with .encode("utf-8").
  Bytes are decoded as UTF-8 with errors="replace" (BOM kept as U+FEFF, re-encoded as
  EF BB BF). A surrogateescape'd str would make that .encode() raise, so invalid bytes
  cannot reach the C++ parser through this API: non_utf8_bodies = false.
- URLs: is_allowed(body, agent, url) wants a full, %-encoded URL ("should be %-encoded
  per RFC3986"): paths are joined onto https://example.com textually, absolute URLs go
  as given, raw_non_ascii_urls = false. A fresh matcher per request; the library
  re-parses the body on every call.
- crawl-delay: the matcher's `crawl_delay` property after an is_allowed() call for the
  agent on https://example.com/ (its README's usage; a float, written as "5" or "0.5").
- valid-token: is_valid_user_agent(token). No sitemap API.
- content-signal: the matcher's `content_signal` property ({ai_train, ai_input, search},
  each True / False / None) after an is_allowed() call for the agent on
  https://example.com/, mapped to yes / no / null. The library does not read `use=`
  (null). No Content-Usage API: `usage` is not applicable.

Known deviations (probe): `/robots.txt` not special; a leading BOM is stripped like
upstream. Unlike upstream it percent-encodes a raw UTF-8 URL (probably ada), but such URLs
are outside the API contract and not sent.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

import robotstxt  # noqa: E402


def decide(robots, agent, urls):
    body = rcproto.utf8(robots, "replace")
    matcher = robotstxt.RobotsMatcher()
    out = []
    for url in urls:
        try:
            out.append(matcher.is_allowed(body, agent, rcproto.join_url(url)))
        except Exception as e:
            out.append(e)
    return out


def crawl_delay(robots, agent):
    matcher = robotstxt.RobotsMatcher()
    matcher.is_allowed(rcproto.utf8(robots, "replace"), agent, rcproto.BASE + "/")
    return matcher.crawl_delay


def content_signal(robots, agent):
    matcher = robotstxt.RobotsMatcher()
    matcher.is_allowed(rcproto.utf8(robots, "replace"), agent, rcproto.BASE + "/")
    s = matcher.content_signal or {}
    word = {True: "yes", False: "no", None: None}
    return {
        "search": word[s.get("search")],
        "ai-input": word[s.get("ai_input")],
        "ai-train": word[s.get("ai_train")],
        "use": None,
    }


rcproto.serve(
    {
        "name": "python-fast-robotstxt",
        "version": "fast-robotstxt %s (librobots %s)" % (version("fast-robotstxt"), robotstxt.get_version()),
        "language": "python",
        "profile": "google",
        "body": "utf-8, errors=replace",
    },
    decide=decide,
    crawl_delay=crawl_delay,
    valid_token=robotstxt.is_valid_user_agent,
    content_signal=content_signal,
)
