'use strict';
// rcproto: the adapter protocol loop (adapters/PROTOCOL.md, version 1) for Node adapters.
//
// CommonJS, Node 12+, no dependencies. Require it *before* the parser, describe the adapter
// and hand over plain (possibly async) functions; hello, base64, JSON, per-URL error
// capture, unsupported operations, strict answer order and exit on EOF happen here:
//
//   const rc = require('../lib/rcproto');
//   const robotsParser = require('robots-parser');   // found through NODE_PATH
//   rc.serve({name: 'node-robots-parser', version: 'robots-parser 3.0.1', language: 'node',
//             profile: 'google', body: 'utf-8, invalid bytes as U+FFFD'}, {
//     parse: (robots, agent) => robots.toString('utf8'),
//     allowed: (text, agent, url) => robotsParser(rc.robotsTxtUrl(url), text).isAllowed(rc.joinUrl(url), agent),
//   });
//
// Callbacks (all optional, each may return a Promise; a missing one answers `unsupported`):
//   decide(robots: Buffer, agent, urls) -> array, one entry per URL: a boolean, an Error
//                                (becomes {"error": ...}) or a ready object
//   parse(robots: Buffer, agent) -> parsed        once per decide request, then
//   allowed(parsed, agent, url) -> boolean        once per URL (without `parse`, `parsed` is
//                                                 the raw Buffer)
//   sitemaps(robots) -> array of strings (null/undefined: none)
//   crawlDelay(robots, agent) -> string, number or null/undefined
//   validToken(token) -> boolean
//   robotsUrl(url) -> string or null
//   fetch(robotsUrl, agent, urls, timeout) -> array, one entry per URL as for decide: for
//                                parsers and crawlers that fetch robots.txt themselves
//                                (`robotsUrl` is on the loopback fixture, `timeout` in seconds)
//
// A verdict must be a real boolean: anything else (undefined, 0, "yes") is reported as an
// error, because the protocol forbids guessing. Throw rc.unsupported('why') from a callback to
// answer the whole request {"unsupported": "why"}. Requests are handled one at a time in
// arrival order, so answers stay in order even when callbacks are async.
//
// Stdout hygiene: process.stdout.write is pointed at stderr once this module is loaded, so a
// parser that calls console.log cannot corrupt the protocol stream; answers go out through a
// private reference to the real write. Answers are ASCII-only JSON, lone surrogates replaced.

const BASE = 'https://example.com';

const realWrite = process.stdout.write.bind(process.stdout);
process.stdout.write = process.stderr.write.bind(process.stderr);
process.stdout.on('error', (e) => {
  // EPIPE: the harness went away; nothing left to answer.
  process.exit(e && e.code === 'EPIPE' ? 0 : 1);
});

class Unsupported extends Error {}

function unsupported(why) {
  const e = new Unsupported(why);
  e.name = 'Unsupported';
  return e;
}

class BadRequest extends Error {}

function message(e) {
  if (e instanceof Error) {
    const name = e.name || 'Error';
    return e.message ? `${name}: ${e.message}` : name;
  }
  return `thrown: ${String(e)}`;
}

// Lone surrogates become U+FFFD (strict JSON readers reject them, even escaped); the rest
// of non-ASCII is written as \uXXXX escapes.
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function clean(v) {
  if (typeof v === 'string') return v.replace(LONE, '\ufffd');
  if (Array.isArray(v)) return v.map(clean);
  if (v !== null && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) out[clean(k)] = clean(x);
    return out;
  }
  return v;
}

function asciiJson(obj) {
  return JSON.stringify(clean(obj)).replace(/[\u007f-\uffff]/g,
    (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

function writeLine(obj) {
  realWrite(asciiJson(obj) + '\n');
}

// ------------------------------------------------------------------ helpers for adapters

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

function isAbsolute(url) { return SCHEME.test(url); }

// An absolute URL: the URL itself, or BASE + the path (textually, no normalisation).
function joinUrl(url, base = BASE) {
  if (isAbsolute(url)) return url;
  return base + (url.startsWith('/') ? url : '/' + url);
}

function split(url) {
  const m = SCHEME.exec(url);
  let j = m[0].length;
  while (j < url.length && !'/?#'.includes(url[j])) j++;
  return [url.slice(0, j), url.slice(j)];
}

// Path and query of an absolute URL or a path, fragment cut, textually.
function pathOf(url) {
  let rest = isAbsolute(url) ? split(url)[1] : url;
  rest = rest.split('#', 1)[0];
  return rest.startsWith('/') ? rest : '/' + rest;
}

function originOf(url, base = BASE) { return isAbsolute(url) ? split(url)[0] : base; }

// The robots.txt URL of the site `url` is on (paths: of BASE).
function robotsTxtUrl(url, base = BASE) { return originOf(url, base) + '/robots.txt'; }

// A crawl-delay number as text the way Rust's f64 Display writes it ("5", "0.5", never an
// exponent).
function numberText(x) {
  if (x === null || x === undefined) return null;
  if (typeof x === 'string') return x;
  if (typeof x !== 'number') throw new TypeError(`crawl-delay is a ${typeof x}`);
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const s = String(x);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  // d.ddd x 10^exp, written out: `point` is where the decimal point goes in `digits`.
  const digits = m[2] + (m[3] || '');
  const point = m[2].length + Number(m[4]);
  let out;
  if (point <= 0) out = '0.' + '0'.repeat(-point) + digits;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = digits.slice(0, point) + '.' + digits.slice(point);
  return m[1] + out;
}

// ------------------------------------------------------------------ the loop

function field(req, key, type, what) {
  if (!(key in req)) throw new BadRequest(`missing '${key}'`);
  const v = req[key];
  const ok = type === 'array' ? Array.isArray(v) : typeof v === type;
  if (!ok) throw new BadRequest(`'${key}' must be ${what}`);
  return v;
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function robotsOf(req) {
  const text = field(req, 'robots', 'string', 'a base64 string');
  if (!B64.test(text)) throw new BadRequest('robots is not valid base64');
  return Buffer.from(text, 'base64');
}

function verdict(v) {
  if (v === true) return { verdict: 'allowed' };
  if (v === false) return { verdict: 'disallowed' };
  if (v instanceof Error) return { error: message(v) };
  if (v !== null && typeof v === 'object' && ('verdict' in v || 'error' in v)) return v;
  let shown;
  try { shown = v === undefined ? 'undefined' : JSON.stringify(v); } catch (_) { shown = String(v); }
  return { error: `parser returned ${String(shown).slice(0, 80)}, not a boolean` };
}

function serve(info, handlers = {}) {
  const hello = Object.assign({ protocol: 1 }, info);
  let { decide } = handlers;
  const { parse, allowed, sitemaps, crawlDelay, validToken, robotsUrl, fetch } = handlers;
  if (!decide && allowed) {
    decide = async (robots, agent, urls) => {
      const parsed = parse ? await parse(robots, agent) : robots;
      const out = [];
      for (const url of urls) {
        try {
          out.push(await allowed(parsed, agent, url));
        } catch (e) {
          if (e instanceof Unsupported) throw e;
          out.push(e instanceof Error ? e : new Error(`thrown: ${String(e)}`));
        }
      }
      return out;
    };
  }

  async function answer(req) {
    const op = field(req, 'op', 'string', 'a string');
    if (op === 'hello') return Object.assign({}, hello);
    if (op === 'decide' && decide) {
      const robots = robotsOf(req);
      const agent = field(req, 'agent', 'string', 'a string');
      const urls = field(req, 'urls', 'array', 'a list');
      if (!urls.every((u) => typeof u === 'string')) throw new BadRequest("'urls' must be a list of strings");
      const results = Array.from(await decide(robots, agent, urls.slice()));
      if (results.length !== urls.length) throw new Error(`adapter gave ${results.length} results for ${urls.length} URLs`);
      return { results: results.map(verdict) };
    }
    if (op === 'fetch' && fetch) {
      const url = field(req, 'robots_url', 'string', 'a string');
      const agent = field(req, 'agent', 'string', 'a string');
      const urls = field(req, 'urls', 'array', 'a list');
      if (!urls.every((u) => typeof u === 'string')) throw new BadRequest("'urls' must be a list of strings");
      const timeout = req.timeout === undefined ? 1.0 : req.timeout;
      if (typeof timeout !== 'number') throw new BadRequest("'timeout' must be a number of seconds");
      const results = Array.from(await fetch(url, agent, urls.slice(), timeout));
      if (results.length !== urls.length) throw new Error(`adapter gave ${results.length} results for ${urls.length} URLs`);
      return { results: results.map(verdict) };
    }
    if (op === 'sitemaps' && sitemaps) {
      const v = await sitemaps(robotsOf(req));
      return { value: v == null ? [] : Array.from(v, String) };
    }
    if (op === 'crawl-delay' && crawlDelay) {
      const robots = robotsOf(req);
      const agent = field(req, 'agent', 'string', 'a string');
      return { value: numberText(await crawlDelay(robots, agent)) };
    }
    if (op === 'valid-token' && validToken) {
      const v = await validToken(field(req, 'token', 'string', 'a string'));
      if (typeof v !== 'boolean') throw new Error(`parser returned ${String(v)}, not a boolean`);
      return { value: v };
    }
    if (op === 'robots-url' && robotsUrl) {
      const v = await robotsUrl(field(req, 'url', 'string', 'a string'));
      return { value: v == null ? null : String(v) };
    }
    throw unsupported(`op ${op}`);
  }

  async function handle(line) {
    if (!line.trim()) return;
    let id = null;
    let reply;
    try {
      let req;
      try {
        req = JSON.parse(line);
      } catch (e) {
        throw new BadRequest(`request is not JSON: ${e.message}`);
      }
      if (req === null || typeof req !== 'object' || Array.isArray(req)) throw new BadRequest('request is not a JSON object');
      id = req.id === undefined ? null : req.id;
      reply = Object.assign({ id }, await answer(req));
    } catch (e) {
      if (e instanceof Unsupported) reply = { id, unsupported: e.message || 'unsupported' };
      else if (e instanceof BadRequest) reply = { id, error: `bad request: ${e.message}` };
      else {
        process.stderr.write(`${e && e.stack ? e.stack : String(e)}\n`);
        reply = { id, error: message(e) };
      }
    }
    writeLine(reply);
  }

  // One request at a time, in arrival order.
  let chain = Promise.resolve();
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = Buffer.alloc(0);
  const enqueue = (bytes) => {
    chain = chain.then(() => {
      let line;
      try {
        line = decoder.decode(bytes);
      } catch (e) {
        writeLine({ id: null, error: 'bad request: request is not UTF-8' });
        return undefined;
      }
      return handle(line);
    }).catch((e) => {
      process.stderr.write(`rcproto: ${e && e.stack ? e.stack : String(e)}\n`);
    });
  };
  process.stdin.on('data', (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    let nl;
    while ((nl = pending.indexOf(10, start)) !== -1) {
      enqueue(pending.subarray(start, nl));
      start = nl + 1;
    }
    pending = pending.subarray(start);
  });
  process.stdin.on('end', () => {
    if (pending.length) enqueue(pending);
    chain.then(() => process.exit(0));
  });
  // An exception that escapes a parser's own callbacks or timers: log it and go on.
  process.on('uncaughtException', (e) => {
    process.stderr.write(`uncaught: ${e && e.stack ? e.stack : String(e)}\n`);
  });
  process.on('unhandledRejection', (e) => {
    process.stderr.write(`unhandled rejection: ${e && e.stack ? e.stack : String(e)}\n`);
  });
}

module.exports = {
  serve, unsupported, Unsupported, joinUrl, pathOf, originOf, robotsTxtUrl,
  numberText, isAbsolute, BASE,
};
