#!/usr/bin/env python3
"""python-reppy: reppy 0.4.14 from PyPI (Moz; Cython over the C++ rep-cpp and url-cpp),
built from its sdist, through adapters/ext/lib/rcproto.py.

Profile claimed: google. reppy states no specification; it implements Allow, `*`/`$`
wildcards and longest match (directive priority = pattern length), which is Google's
reading.

Build (see adapter.toml): the sdist's pre-generated robots.cpp needs longintrepr.h, gone
in Python 3.11, so it is deleted and robots.pyx is re-cythonized with Cython < 3; GCC 12
needs CPPFLAGS="-include limits" for url-cpp's punycode.h. No reppy source is changed.

Input conventions:
- Body: raw bytes; Robots.parse(url, content) passes bytes straight to C++ (it skips a
  leading EF BB BF itself): non_utf8_bodies = true.
- URLs: a Robots object is bound to the robots.txt URL it was fetched from, and answers
  False for URLs on another host (Agent::allowed: is_external). So, as a crawler would,
  the adapter parses the body once per site in the request, bound to
  <scheme>://<host>/robots.txt of the URL (https://example.com/robots.txt for paths),
  and asks Robots.allowed(url, agent) with paths joined onto https://example.com. The
  C++ url-cpp escapes the URL itself, so raw non-ASCII URLs are fine.
- sitemaps: the `sitemaps` property (decoded as UTF-8 by reppy, so invalid bytes there
  error). crawl-delay: agent(name).delay, a C float (so "0.1" comes back as
  0.10000000149011612) or None when not positive. robots-url: Robots.robots_url(url).
- fetch: the package's own Robots.fetch(robots_url, timeout=...) (requests, reading at
  most 1 MiB), then allowed(url, agent) per URL. fetch maps 200 to the rules, 401/403 to
  "disallow all", other 4xx to "allow all", and raises for every other status (other 2xx,
  5xx: BadStatusCode) and for network errors: those come back as errors.

Known deviations (probe): CR-only line endings are not split; a `sitemap:` line between
user-agent lines ends the group; `/robots.txt` always allowed (special-cased). Hangs on
patterns with many wildcards (probe case H1).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

from reppy.robots import Robots  # noqa: E402


def decide(robots, agent, urls):
    per_site = {}
    out = []
    for url in urls:
        try:
            robots_url = rcproto.robots_txt_url(url)
            if robots_url not in per_site:
                per_site[robots_url] = Robots.parse(robots_url, robots)
            out.append(per_site[robots_url].allowed(rcproto.join_url(url), agent))
        except Exception as e:
            out.append(e)
    return out


def parse(robots):
    return Robots.parse(rcproto.BASE + "/robots.txt", robots)


def fetch(robots_url, agent, urls, timeout):
    robots = Robots.fetch(robots_url, timeout=timeout)
    return rcproto.each_url(lambda a, u: robots.allowed(u, a), agent, urls)


rcproto.serve(
    {
        "name": "python-reppy",
        "version": "reppy " + version("reppy"),
        "language": "python",
        "profile": "google",
        "body": "bytes",
    },
    decide=decide,
    sitemaps=lambda robots: parse(robots).sitemaps,
    crawl_delay=lambda robots, agent: parse(robots).agent(agent).delay,
    robots_url=Robots.robots_url,
    fetch=fetch,
)
