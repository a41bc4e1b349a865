#!/usr/bin/env python3
"""python-robots-oracle: the Python package robots-oracle 0.1.0 of this repository
(bindings/python: the oracle crate through PyO3), through adapters/ext/lib/rcproto.py.

Profile claimed: rfc9309 (the package's default profile, which is the oracle's).

Input conventions:
- Body: RobotsTxt(body) takes bytes and hands them to the oracle untouched (BOM, CR, invalid
  UTF-8 included): non_utf8_bodies = true.
- URLs: allowed(agent, url) takes absolute URLs and paths as given; a URL the oracle refuses
  raises ValueError with the oracle's message, reported as that URL's error.
- sitemaps: the `sitemaps` property; crawl-delay: crawl_delay(agent), the value as written;
  valid-token: is_valid_product_token(token); robots-url: robots_txt_url(url); usage:
  usage(agent, url) (None for a URL that may not be crawled, else category -> y/n/unknown;
  under rfc9309, the claimed profile, every category is unknown). No fetch API.

Known deviations: none expected; this adapter exists to prove the package answers what the
`reference` adapter (the same oracle, in process) answers.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import rcproto  # noqa: E402  (first: claims stdout)
from importlib.metadata import version  # noqa: E402

import robots_oracle  # noqa: E402


def parse(robots, agent=None):
    return robots_oracle.RobotsTxt(robots, "rfc9309")


rcproto.serve(
    {
        "name": "python-robots-oracle",
        "version": "robots-oracle " + version("robots-oracle"),
        "language": "python",
        "profile": "rfc9309",
        "body": "raw bytes",
    },
    parse=parse,
    allowed=lambda p, agent, url: p.allowed(agent, url),
    sitemaps=lambda robots: parse(robots).sitemaps,
    crawl_delay=lambda robots, agent: parse(robots).crawl_delay(agent),
    valid_token=robots_oracle.is_valid_product_token,
    robots_url=robots_oracle.robots_txt_url,
    usage=lambda robots, agent, url: parse(robots).usage(agent, url),
)
