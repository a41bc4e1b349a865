// The playground's oracle, off the page's thread: a Web Worker built from a Blob of this text
// and the classic-script glue (both inlined in the page as text, so it works from file://).
// It instantiates the WebAssembly oracle from the base64 it is sent, then answers each question
// ({ robots, agent, urls, profile }) with plain data: every profile's decision for every URL,
// the file's lines, crawl-delay, sitemaps, diagnostics and the fitted readings' predictions.
// It only asks the oracle and copies its answers; it never touches the page (app.js draws) and
// never decides anything itself. When a worker cannot be started, app.js runs this same text
// on the page's thread with a `self` of its own, so the answers are the same either way.
'use strict';
(function () {
  var FILE_LINES_SHOWN = 1000; // the file view lists this many lines, then the deciding ones
  var oracle = null;
  var PROFILES = [];
  var SWITCHES = [];
  var FITS = [];

  function init(b64, fits) {
    var raw = atob(b64);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    wasm_bindgen.initSync({ module: bytes });
    oracle = wasm_bindgen;
    PROFILES = oracle.profiles();
    SWITCHES = oracle.switchNames();
    FITS = fits;
  }

  // One profile's answer for one URL, as plain data (the oracle's objects do not cross).
  function decision(robots, profile, agent, url) {
    var d;
    try {
      d = robots.decide(agent, url);
    } catch (e) {
      return { profile: profile, error: String(e && e.message || e) };
    }
    var out = { profile: profile, verdict: d.verdict, allowed: d.allowed, reason: d.reason,
      clause: d.clause, explanation: d.explanation };
    if (d.line !== undefined) { out.line = d.line; out.lineText = d.lineText; }
    if (profile === 'aipref') {
      var u = robots.usage(agent, url);
      out.usage = u === undefined ? null
        : u.map(function (e) { return { category: e.category, value: e.value }; });
    }
    return out;
  }

  function answer(state) {
    var started = performance.now();
    var body = new TextEncoder().encode(state.robots);
    var parsed = {};
    PROFILES.forEach(function (p) { parsed[p] = new oracle.RobotsTxt(body, p); });
    try {
      var first = PROFILES.indexOf(state.profile) >= 0 ? state.profile : PROFILES[0];
      var order = [first].concat(PROFILES.filter(function (p) { return p !== first; }));
      var deciding = {};
      var answers = state.urls.map(function (url) {
        var rows = order.map(function (p) { return decision(parsed[p], p, state.agent, url); });
        if (rows[0].line !== undefined) deciding[rows[0].line] = true;
        return { url: url, rows: rows };
      });
      var decided = performance.now();
      var robots = parsed[first];
      var count = robots.lineCount;
      var shown = Math.min(count, FILE_LINES_SHOWN);
      var file = { count: count, lines: Array.prototype.slice.call(robots.lines(1, shown)),
        extra: Object.keys(deciding).map(Number).filter(function (n) { return n > shown; })
          .sort(function (a, b) { return a - b; })
          .map(function (n) { return { n: n, text: robots.line(n) }; }),
        deciding: Object.keys(deciding).map(Number) };
      var about = {
        crawlDelay: order.map(function (p) {
          var cd = parsed[p].crawlDelay(state.agent);
          return { profile: p, value: cd === undefined ? null : cd };
        }),
        sitemaps: Array.prototype.slice.call(robots.sitemaps),
        diagnostics: Array.prototype.map.call(robots.diagnostics, function (d) {
          return { line: d.line, message: d.message, clause: d.clause };
        }),
      };
      return { order: order, answers: answers, file: file, about: about,
        others: predictions(state, body), bytes: body.length,
        decideMs: decided - started, ms: performance.now() - started };
    } finally {
      PROFILES.forEach(function (p) { parsed[p].free(); });
    }
  }

  // One row per fitted parser: the oracle's verdict under that parser's fitted reading (its
  // rule-level switches; fetch-level ones do not change a verdict on a body in hand).
  function predictions(state, body) {
    return FITS.map(function (fit) {
      var rules = fit.changes.filter(function (c) { return SWITCHES.indexOf(c) >= 0; });
      var robots;
      try {
        robots = new oracle.RobotsTxt(body, fit.base, rules);
      } catch (e) {
        return { adapter: fit.adapter, error: String(e && e.message || e) };
      }
      try {
        return { adapter: fit.adapter, cells: state.urls.map(function (url) {
          try {
            var d = robots.decide(state.agent, url);
            return { url: url, verdict: d.verdict, allowed: d.allowed };
          } catch (e) {
            return { url: url, error: String(e && e.message || e) };
          }
        }) };
      } finally {
        robots.free();
      }
    });
  }

  self.onmessage = function (e) {
    var m = e.data;
    if (m.type === 'init') {
      try {
        init(m.wasm, m.fits);
        self.postMessage({ type: 'ready', profiles: PROFILES });
      } catch (err) {
        self.postMessage({ type: 'failed', message: String(err && err.message || err) });
      }
    } else if (m.type === 'ask') {
      var reply = { type: 'answer', id: m.id };
      try {
        reply.result = answer(m.state);
      } catch (err) {
        reply.error = String(err && err.message || err);
      }
      self.postMessage(reply);
    }
  };
})();
