'use strict';
//! node-robots-txt-guard: robots-txt-guard 1.0.2 with robots-txt-parse 2.0.1 from npm
//! (Woorank): the streaming parser produces groups, the guard answers, through
//! adapters/ext/lib/rcproto.js.
//!
//! Profile claimed: google. Neither package names a specification; they implement
//! Google's extensions (`*`, `$`, most specific rule wins, even `noindex`).
//!
//! Modules: installed by `npm ci` into .adapters/node-robots-txt-guard/node_modules; the
//! manifest's run command sets NODE_PATH to it, so plain require() finds them.
//!
//! Input conventions:
//! - Body: raw bytes. robots-txt-parse reads a byte stream (here Readable.from([buffer]))
//!   and decodes it itself (split2: UTF-8 StringDecoder, lines split on /\r?\n/), so the
//!   parser, not the adapter, decides what invalid bytes become: non_utf8_bodies = true.
//!   The parse is async; rcproto keeps answers in order.
//! - URLs: guard.isAllowed(agent, path) takes a path: absolute URLs are cut to path and
//!   query textually (no decoding or normalisation, fragment dropped); paths go as given
//!   minus any fragment.
//! - sitemaps: the parse result's file-wide `extensions` whose field is "sitemap", in
//!   order. No crawl-delay: the parser keeps crawl-delay lines file-wide, not per group.
//!
//! Known deviations (probe): only the first group per agent (5b); the group list ends at a
//! `sitemap:` line (7b); CR-only line endings are not split; agent matched as a substring
//! (a full User-Agent header matches); raw UTF-8 paths compared as strings with
//! percent-encoded rules; `/robots.txt` not special. Hangs on patterns with many
//! wildcards (probe case H1).
const path = require('path');
const { Readable } = require('stream');
const rc = require(path.join(__dirname, '..', 'lib', 'rcproto.js'));
const parse = require('robots-txt-parse');
const guard = require('robots-txt-guard');

const versions = ['robots-txt-guard', 'robots-txt-parse']
  .map((p) => `${p} ${require(`${p}/package.json`).version}`).join(' + ');

const parsed = (robots) => parse(Readable.from([robots]));

rc.serve({
  name: 'node-robots-txt-guard',
  version: versions,
  language: 'node',
  profile: 'google',
  body: 'bytes (robots-txt-parse decodes UTF-8 itself)',
}, {
  parse: async (robots) => guard(await parsed(robots)),
  allowed: (g, agent, url) => g.isAllowed(agent, rc.pathOf(url)),
  sitemaps: async (robots) => (await parsed(robots)).extensions
    .filter((e) => e.extension === 'sitemap').map((e) => e.value),
});
