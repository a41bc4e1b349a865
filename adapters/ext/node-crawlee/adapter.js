'use strict';
//! node-crawlee: the Crawlee crawler framework for Node (@crawlee/http 3.18.1 with
//! @crawlee/basic, @crawlee/utils and @crawlee/memory-storage 3.18.1; robots.txt fetched with
//! got-scraping 4.2.1 and parsed with robots-parser 3.0.1; pinned in package-lock.json),
//! driven end to end: a fresh HttpCrawler per request with `respectRobotsTxtFile: {userAgent:
//! <the check's agent>}`, over the protocol of adapters/PROTOCOL.md (adapters/ext/lib/rcproto.js).
//!
//! Profile claimed: rfc9309, as node-robots-parser claims for robots-parser (it cites the draft
//! that became RFC 9309).
//!
//! What is observed. `crawler.run(urls)` first filters the URLs through robots.txt
//! (BasicCrawler.addRequests: RobotsTxtFile.find on the first URL of an origin, cached per
//! crawler), then fetches the ones left. The verdict for a URL is whether Crawlee sent the
//! request for it:
//!   - a preNavigationHook ran for it (they run after the robots.txt check, just before the page
//!     request) -> "allowed" (the page then goes to the fixture; its status is not the verdict);
//!   - onSkippedRequest reported it with reason 'robotsTxt' -> "disallowed";
//!   - neither -> that URL's error (with the failure Crawlee logged, if any).
//!
//! Configuration: respectRobotsTxtFile = {userAgent: agent} (with plain `true` Crawlee matches
//! only the `*` group); maxRequestRetries = 0 and maxSessionRotations = 0 (a connection
//! error is a "session error", retried up to 10 times whatever maxRequestRetries says);
//! navigationTimeoutSecs = the request's timeout (for the page requests only); in-memory
//! storage (persistStorage false, CRAWLEE_STORAGE_DIR in the state folder), so no state
//! survives between checks. NOT
//! configurable: the robots.txt request's timeout. BasicCrawler calls RobotsTxtFile.find(url)
//! with no options, so got-scraping's default applies (60 s): a robots.txt that never answers
//! holds the crawl far past the harness's deadline, and the harness reports a timeout.
//!
//! Fetch layer, as measured against the fixture server (matrix --adapters node-crawlee fetch;
//! the mechanism is RobotsTxtFile.load and BasicCrawler.getRobotsTxtFileForUrl):
//!   - got-scraping runs with throwHttpErrors = false, so ANY status's body is parsed as
//!     robots.txt: 2xx, 4xx (401/403/429 too) and 5xx alike. Rules served with a 404 or 403 are
//!     obeyed (fails R2.3.1.3-2); 500, 502, 503, 504 and 599 pages without rules ALLOW ALL
//!     (fails R2.3.1.4-1: MUST disallow). RobotsTxtFile.load's own "404 means allow all" branch
//!     is dead code (it waits for an HTTPError that never comes). 204 and 600 allow all.
//!   - 3xx: followed by got (301/302/303/307/308, relative, across hosts, 6 hops); a loop ends
//!     with got's error after 10, see errors. Meta refresh not followed.
//!   - an error (refused, bad chunking, not HTTP, too many redirects): RobotsTxtFile.find
//!     throws, Crawlee logs "Failed to fetch robots.txt", does not cache the failure and ALLOWS
//!     the URL.
//!   - timeout, dropped, truncated: the robots.txt request waits got-scraping's 60 s, and since
//!     the failure is not cached it is made twice per URL (in addRequests, then again before
//!     the request runs): measured 2 min 3 s for one URL against a server that never answers,
//!     then "allowed". The harness reports these checks `timeout`.
//!   - bodies: decoded by got as UTF-8 text whatever the Content-Type (an HTML page is parsed as
//!     robots.txt); no size cap, every rule past 500 KiB used.
//!   - the robots.txt request (and every page request) carries got-scraping's generated browser
//!     headers (a random Chrome/Edge User-Agent), not the agent: the site cannot tell the crawler.
//!
//! Decide: answered by serving the body from a loopback HTTP server of this process (127.0.0.1,
//! ephemeral port, 200 text/plain) and crawling each URL's path and query on it.

const rc = require('../lib/rcproto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const http = require('http');

for (const k of Object.keys(process.env)) {
  if (/^(https?|all|ftp)_proxy$/i.test(k)) delete process.env[k];
}
// Storage is in memory (persistStorage false); Crawlee still wants a folder. The manifest
// points CRAWLEE_STORAGE_DIR into the adapter's state folder (reused, so a SIGKILLed process
// leaves nothing behind); without it, a private temporary folder removed at exit.
let storageDir = process.env.CRAWLEE_STORAGE_DIR;
if (storageDir) {
  fs.mkdirSync(storageDir, { recursive: true });
} else {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-crawlee-'));
  process.env.CRAWLEE_STORAGE_DIR = storageDir;
  const cleanup = () => {
    try { fs.rmSync(storageDir, { recursive: true, force: true }); } catch (_) { /* best effort */ }
  };
  process.on('exit', cleanup);
  for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => { cleanup(); process.exit(143); });
}
process.env.CRAWLEE_PERSIST_STORAGE = 'false';
process.env.CRAWLEE_LOG_LEVEL = process.env.RC_CRAWLEE_LOG || 'OFF';

const { HttpCrawler } = require('@crawlee/http');
const { Configuration } = require('@crawlee/core');
const { MemoryStorage } = require('@crawlee/memory-storage');

// The installed version of a package (read from its folder: some packages export no
// package.json).
function versionOf(name) {
  for (const dir of require.resolve.paths(name) || []) {
    const file = path.join(dir, name, 'package.json');
    if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')).version;
  }
  return 'unknown';
}
const VERSION = `@crawlee/http ${versionOf('@crawlee/http')} (robots-parser ${versionOf('robots-parser')}, ` +
  `got-scraping ${versionOf('got-scraping')})`;

// Page requests are answered quickly by the fixture (404 unless scripted); this bounds a
// request handler that never returns.
const HANDLER_SECS = 5;

async function crawl(agent, urls, timeout) {
  const config = new Configuration({
    persistStorage: false,
    purgeOnStart: true,
    storageClient: new MemoryStorage({ persistStorage: false, writeMetadata: false }),
  });
  const reached = new Set();
  const skipped = new Map();
  const failed = new Map();
  const crawler = new HttpCrawler({
    respectRobotsTxtFile: { userAgent: agent },
    maxRequestRetries: 0,
    maxSessionRotations: 0,
    navigationTimeoutSecs: timeout,
    requestHandlerTimeoutSecs: HANDLER_SECS,
    preNavigationHooks: [({ request }) => { reached.add(request.userData.rcIndex); }],
    requestHandler: async () => {},
    failedRequestHandler: async ({ request }, error) => {
      failed.set(request.userData.rcIndex, error && error.message ? error.message : String(error));
    },
    onSkippedRequest: async ({ url, reason }) => { skipped.set(url, reason); },
  }, config);
  await crawler.run(urls.map((url, i) => ({ url, uniqueKey: `rc-${i}`, userData: { rcIndex: i } })));
  await crawler.teardown();
  return urls.map((url, i) => {
    if (reached.has(i)) return true;
    const why = skipped.get(url);
    if (why === 'robotsTxt') return false;
    if (why) return new Error(`skipped by Crawlee, not for robots.txt: ${why}`);
    if (failed.has(i)) return new Error(`request failed before it was sent: ${failed.get(i)}`);
    return new Error('Crawlee neither sent the request nor reported it skipped');
  });
}

// The decide server: /robots.txt is the current body, anything else 404.
let body = Buffer.alloc(0);
const server = http.createServer((req, res) => {
  if (req.url.split('?')[0] === '/robots.txt') {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
    res.end(body);
  } else {
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found\n');
  }
});

server.listen(0, '127.0.0.1', async () => {
  server.unref();
  const base = `http://127.0.0.1:${server.address().port}`;
  // One crawl before hello: the first crawl loads and initialises much of Crawlee (a second or
  // more under load), which would otherwise overrun the first request's deadline every time
  // the harness restarts the process.
  try {
    await crawl('warm-up', [`${base}/`], 5);
  } catch (e) {
    process.stderr.write(`node-crawlee: warm-up crawl failed: ${e && e.stack ? e.stack : e}\n`);
  }
  rc.serve({
    name: 'node-crawlee',
    version: VERSION,
    language: 'node',
    profile: 'rfc9309',
    body: "got's: UTF-8 text (invalid bytes as U+FFFD), whatever the bytes served",
  }, {
    fetch: (robotsUrl, agent, urls, timeout) => crawl(agent, urls, timeout),
    decide: (robots, agent, urls) => {
      body = robots;
      return crawl(agent, urls.map((u) => base + rc.pathOf(u)), 5);
    },
  });
});
