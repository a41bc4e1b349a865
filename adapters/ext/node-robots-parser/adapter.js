'use strict';
//! node-robots-parser: robots-parser 3.0.1 from npm (samclarke), through
//! adapters/ext/lib/rcproto.js.
//!
//! Profile claimed: rfc9309 (its README: "aims to be compliant with the draft specification",
//! draft-koster-rep, which became RFC 9309; its matcher follows Google's algorithm).
//!
//! Modules: the package is installed by `npm ci` into the adapter's state folder
//! (.adapters/node-robots-parser/node_modules); the manifest's run command sets NODE_PATH to
//! that folder, so plain require() finds it and nothing is installed next to this file.
//!
//! Input conventions:
//! - Body: robotsParser(url, contents) takes a string. Bytes are decoded as UTF-8 with
//!   invalid sequences replaced by U+FFFD (Buffer#toString('utf8'); a BOM is kept as
//!   U+FEFF), so the parser never sees raw bytes: non_utf8_bodies = false.
//! - URLs: a Robots object is bound to its robots.txt URL and answers `undefined` for URLs
//!   of another scheme, host or port (and for relative ones). As a crawler would, the
//!   adapter parses the body once per site in the request, bound to
//!   <scheme>://<host>/robots.txt of the URL, and joins paths onto https://example.com
//!   before isAllowed(url, agent). Any answer that is still not a boolean is reported as an
//!   error by rcproto, never guessed. WHATWG URL parsing percent-encodes raw non-ASCII.
//! - sitemaps: getSitemaps(); crawl-delay: getCrawlDelay(agent) (a number; "5", "0.5").
//!
//! Known deviations (probe): only the first matching group is used for a repeated agent
//! (5b), a `sitemap:` line between user-agent lines ends the group (7b); `/robots.txt`
//! not special; agent cut at "/" and matched case-insensitively, no `[A-Za-z_-]` check.
const path = require('path');
const rc = require(path.join(__dirname, '..', 'lib', 'rcproto.js'));
const robotsParser = require('robots-parser');
const { version } = require('robots-parser/package.json');

function text(robots) {
  return robots.toString('utf8');
}

function decide(robots, agent, urls) {
  const body = text(robots);
  const perSite = new Map();
  return urls.map((url) => {
    try {
      const robotsUrl = rc.robotsTxtUrl(url);
      if (!perSite.has(robotsUrl)) perSite.set(robotsUrl, robotsParser(robotsUrl, body));
      return perSite.get(robotsUrl).isAllowed(rc.joinUrl(url), agent);
    } catch (e) {
      return e instanceof Error ? e : new Error(String(e));
    }
  });
}

const parse = (robots) => robotsParser(`${rc.BASE}/robots.txt`, text(robots));

rc.serve({
  name: 'node-robots-parser',
  version: `robots-parser ${version}`,
  language: 'node',
  profile: 'rfc9309',
  body: 'utf-8, invalid bytes as U+FFFD',
}, {
  decide,
  sitemaps: (robots) => parse(robots).getSitemaps(),
  crawlDelay: (robots, agent) => parse(robots).getCrawlDelay(agent),
});
