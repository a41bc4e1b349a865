// The playground page: reads the question from the URL fragment
// (#robots=…&agent=…&url=…&url=…&profile=…, percent-encoded), asks the oracle (the
// WebAssembly build inlined above) under every profile, and shows the answers. The oracle runs
// in a Web Worker (worker.js, started from a Blob of the inlined glue and worker text, since a
// worker script cannot be loaded from file://), so a large file never freezes the page; where
// no worker can start, the same text runs on this thread. It decides nothing itself: verdicts,
// reasons, clauses, deciding lines, crawl-delay, sitemaps and diagnostics are the oracle's.
// Runs from file:// (no fetch: everything is inlined).
'use strict';
(function () {
  var DEFAULT = {
    robots: 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nSitemap: https://example.com/sitemap.xml\n',
    agent: 'FooBot',
    urls: ['https://example.com/private/page', 'https://example.com/private/open/x'],
    profile: 'rfc9309',
  };
  var WASM = document.getElementById('oracle-wasm').textContent.trim();
  var GLUE = document.getElementById('oracle-glue').textContent;
  var WORKER = document.getElementById('oracle-worker').textContent;
  // The parsers' fitted readings (`playground --fits`, from `matrix --fingerprint`).
  var FITS = JSON.parse(document.getElementById('fits').textContent);
  var PROFILES = [];

  var $ = function (id) { return document.getElementById(id); };
  var el = function (tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'className') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  };

  // The fragment: key=value pairs joined by "&", each side percent-encoded ("+" is a plus).
  function readFragment() {
    var state = { robots: null, agent: null, urls: [], profile: null };
    var hash = location.hash.replace(/^#/, '');
    if (!hash) return null;
    hash.split('&').forEach(function (pair) {
      var at = pair.indexOf('=');
      if (at < 0) return;
      var key, value;
      try {
        key = decodeURIComponent(pair.slice(0, at));
        value = decodeURIComponent(pair.slice(at + 1));
      } catch (e) { return; }
      if (key === 'url') state.urls.push(value);
      else if (key in state) state[key] = value;
    });
    return state;
  }

  function writeFragment(state) {
    var parts = ['robots=' + encodeURIComponent(state.robots),
      'agent=' + encodeURIComponent(state.agent)];
    state.urls.forEach(function (u) { parts.push('url=' + encodeURIComponent(u)); });
    parts.push('profile=' + encodeURIComponent(state.profile));
    try {
      history.replaceState(null, '', '#' + parts.join('&'));
      return true;
    } catch (e) {
      return false; // a link longer than the browser keeps
    }
  }

  function currentState() {
    return {
      robots: $('robots').value,
      agent: $('agent').value,
      urls: $('urls').value.split('\n').map(function (u) { return u.trim(); })
        .filter(function (u) { return u.length > 0; }),
      profile: $('profile').value,
    };
  }

  function fill(state) {
    $('robots').value = state.robots === null ? DEFAULT.robots : state.robots;
    $('agent').value = state.agent === null ? DEFAULT.agent : state.agent;
    $('urls').value = (state.urls.length ? state.urls : DEFAULT.urls).join('\n');
    wanted = state.profile;
    $('profile').value = PROFILES.indexOf(state.profile) >= 0 ? state.profile : 'rfc9309';
  }
  var wanted = null; // the fragment's profile, kept until the oracle has listed its profiles

  function showLine(n) {
    var li = document.querySelector('#file li[data-line="' + n + '"]');
    if (li) { li.focus(); li.scrollIntoView({ block: 'center' }); }
  }

  function answerRow(url, d, first) {
    var profile = d.profile;
    var row = el('tr', { 'data-testid': 'answer', 'data-url': url, 'data-profile': profile,
      className: first ? 'first' : '' });
    row.appendChild(el('th', { scope: 'row', text: profile }));
    if (d.error !== undefined) {
      row.setAttribute('data-verdict', 'error');
      row.appendChild(el('td', { className: 'error', colspan: '4', role: 'alert',
        text: 'The oracle refuses this URL: ' + d.error }));
      return [row, null];
    }
    row.setAttribute('data-verdict', d.verdict);
    row.setAttribute('data-reason', d.reason);
    row.setAttribute('data-clause', d.clause);
    if (d.line !== undefined) row.setAttribute('data-line', String(d.line));
    row.appendChild(el('td', { className: 'verdict ' + d.verdict,
      text: (d.allowed ? '\u2713 ' : '\u2717 ') + d.verdict }));
    row.appendChild(el('td', { text: d.reason + ' (' + d.clause + ')' }));
    var deciding = el('td');
    if (d.line !== undefined) {
      var b = el('button', { type: 'button', className: 'line-link', text: 'line ' + d.line,
        'aria-label': 'Show line ' + d.line + ' in the file' });
      b.addEventListener('click', function () { showLine(d.line); });
      deciding.appendChild(b);
      deciding.appendChild(document.createTextNode(' '));
      deciding.appendChild(el('code', { 'data-testid': 'deciding-line', text: d.lineText }));
    } else {
      deciding.textContent = 'no rule decided';
    }
    row.appendChild(deciding);
    // AI usage preferences: Content-Usage rules are read under the aipref profile only.
    var usage = el('td', { 'data-testid': 'usage' });
    var u = profile === 'aipref' ? d.usage : undefined;
    if (profile !== 'aipref') usage.textContent = 'not read under ' + profile;
    else if (u === null) usage.textContent = 'none: the URL may not be crawled';
    else usage.textContent = u.map(function (e) { return e.category + '=' + e.value; }).join(', ');
    if (u) usage.setAttribute('data-usage', u.map(function (e) { return e.category + '=' + e.value; }).join(','));
    row.appendChild(usage);
    var more = el('tr', {}, [el('td', { colspan: '5' }, [
      el('details', first ? { open: '' } : {}, [
        el('summary', { text: 'Explanation under ' + profile }),
        el('pre', { 'data-testid': 'explanation', text: d.verdict + ' ' + url + '\n' + d.explanation }),
      ]),
    ])]);
    return [row, more];
  }

  // Draws the answer `r` (from worker.js) to the question `q`.
  function draw(q, r) {
    var drawing = performance.now();
    var state = q.state;
    var answers = $('answers');
    answers.textContent = '';
    if (!r.answers.length) answers.appendChild(el('p', { text: 'Enter a URL to ask about.' }));
    r.answers.forEach(function (a) {
      var table = el('table', {}, [
        el('caption', { className: 'sr-only', text: 'Verdicts for ' + a.url + ' by profile' }),
        el('thead', {}, [el('tr', {}, ['Profile', 'Verdict', 'Reason (clause)', 'Deciding line', 'AI usage preferences']
          .map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
      ]);
      var tbody = el('tbody');
      a.rows.forEach(function (d, k) {
        var row = answerRow(a.url, d, k === 0);
        tbody.appendChild(row[0]);
        if (row[1]) tbody.appendChild(row[1]);
      });
      table.appendChild(tbody);
      answers.appendChild(el('article', {}, [el('h3', {}, [el('span', { text: 'URL ' }),
        el('code', { text: a.url })]), table]));
    });
    renderFile(r.file);
    renderAbout(state, r);
    renderOthers(state, r.others);
    var ms = performance.now() - q.started;
    document.body.setAttribute('data-ready', 'true');
    document.body.setAttribute('data-ms', ms.toFixed(1));
    document.body.setAttribute('data-decide-ms', r.decideMs.toFixed(1));
    // The page's thread is busy only for this drawing (the oracle ran in the worker).
    document.body.setAttribute('data-draw-ms', (performance.now() - drawing).toFixed(1));
    $('status').textContent = 'Decided in ' + r.ms.toFixed(1) + ' ms, shown in ' + ms.toFixed(1)
      + ' ms (' + r.bytes + ' bytes, ' + state.urls.length + ' URL(s), ' + r.order.length + ' profiles).'
      + (q.linked ? '' : ' This question is too long for a link.');
  }

  function renderFile(f) {
    var file = $('file');
    file.textContent = '';
    var deciding = {};
    f.deciding.forEach(function (n) { deciding[n] = true; });
    var add = function (n, text) {
      var li = el('li', { value: String(n), 'data-line': String(n), tabindex: '-1',
        className: deciding[n] ? 'decides' : '', text: text === '' ? '\u00a0' : text });
      if (deciding[n]) li.setAttribute('aria-label', 'line ' + n + ', deciding: ' + text);
      file.appendChild(li);
    };
    f.lines.forEach(function (text, i) { add(i + 1, text); });
    if (f.count > f.lines.length) {
      file.appendChild(el('li', { className: 'gap', text: (f.count - f.lines.length)
        + ' more lines not listed; the deciding ones follow.' }));
      f.extra.forEach(function (x) { add(x.n, x.text); });
    }
  }

  function renderAbout(state, r) {
    var about = $('about');
    about.textContent = '';
    var rows = r.about.crawlDelay.map(function (c) {
      return el('tr', { 'data-testid': 'crawl-delay', 'data-profile': c.profile }, [
        el('th', { scope: 'row', text: c.profile }),
        el('td', { text: c.value === null ? 'none for ' + state.agent : c.value + ' (as written)' })]);
    });
    about.appendChild(el('h3', { text: 'Crawl-delay for ' + state.agent }));
    about.appendChild(el('table', {}, [el('tbody', {}, rows)]));
    var sitemaps = r.about.sitemaps;
    about.appendChild(el('h3', { text: 'Sitemaps (' + sitemaps.length + ')' }));
    about.appendChild(sitemaps.length
      ? el('ul', { 'data-testid': 'sitemaps' }, sitemaps.map(function (s) { return el('li', {}, [el('code', { text: s })]); }))
      : el('p', { text: 'none' }));
    var diags = r.about.diagnostics;
    about.appendChild(el('h3', { text: 'Diagnostics under ' + r.order[0] + ' (' + diags.length + ')' }));
    about.appendChild(diags.length
      ? el('ul', { 'data-testid': 'diagnostics' }, diags.map(function (d) {
        return el('li', { 'data-clause': d.clause, text: 'line ' + d.line + ': ' + d.message + ' (' + d.clause + ')' });
      }))
      : el('p', { text: 'none: every line was read as written' }));
  }

  // One row per fitted parser: its predicted verdicts (worker.js asks the oracle under the
  // parser's fitted reading), labelled as predictions with the fit's agreement.
  function renderOthers(state, predicted) {
    var others = $('others');
    others.textContent = '';
    if (!FITS.length) {
      others.appendChild(el('p', { text: 'No fitted readings were built into this page '
        + '(robots-conformance playground --fits FILE, with the fits.json of matrix --fingerprint --out DIR).' }));
      return;
    }
    var head = el('tr', {}, [el('th', { scope: 'col', text: 'Parser (fitted reading)' })]
      .concat(state.urls.map(function (u) { return el('th', { scope: 'col' }, [el('code', { text: u })]); })));
    var tbody = el('tbody');
    FITS.forEach(function (fit, i) {
      var p = predicted[i];
      var pct = fit.scored ? (100 * fit.agree / fit.scored).toFixed(1) : '0.0';
      var label = fit.adapter + ' \u2248 ' + [fit.base].concat(fit.changes).join(' + ')
        + ' (prediction; the reading agreed on ' + fit.agree + ' of ' + fit.scored + ' checks, ' + pct + ' %)';
      var row = el('tr', { 'data-testid': 'prediction', 'data-adapter': fit.adapter }, [
        el('th', { scope: 'row', text: label })]);
      if (p.error !== undefined) {
        row.appendChild(el('td', { colspan: String(state.urls.length), text: p.error }));
      } else {
        p.cells.forEach(function (c) {
          row.appendChild(c.error !== undefined
            ? el('td', { className: 'error', 'data-url': c.url, 'data-verdict': 'error', text: c.error })
            : el('td', { className: 'verdict ' + c.verdict, 'data-url': c.url, 'data-verdict': c.verdict,
              text: (c.allowed ? '\u2713 ' : '\u2717 ') + c.verdict + ' (predicted)' }));
        });
      }
      tbody.appendChild(row);
    });
    others.appendChild(el('table', {}, [
      el('caption', { className: 'sr-only', text: 'Predicted verdicts of other parsers' }),
      el('thead', {}, [head]), tbody]));
  }

  // The oracle's thread: a worker from a Blob of the inlined text; where none can start (a
  // browser that refuses it), the same text on this thread, answering through a `self` of its
  // own, asynchronously as a worker would.
  var thread = 'worker'; // where the oracle runs: body[data-oracle-thread]
  function startWorker(onmessage, onfailure) {
    var w = null;
    try {
      var url = URL.createObjectURL(new Blob([GLUE, '\n', WORKER], { type: 'text/javascript' }));
      w = new Worker(url);
      w.onerror = function (e) { e.preventDefault(); onfailure(e.message || 'the worker failed'); };
    } catch (e) {
      w = null;
    }
    if (!w) w = inPage();
    w.onmessage = onmessage;
    return w;
  }

  function inPage() {
    thread = 'page';
    var page = { onmessage: null, onerror: null, terminate: function () {} };
    var scope = { onmessage: null, postMessage: function (m) {
      setTimeout(function () { page.onmessage({ data: m }); }, 0);
    } };
    page.postMessage = function (m) { setTimeout(function () { scope.onmessage({ data: m }); }, 0); };
    new Function('self', GLUE + '\n' + WORKER)(scope);
    return page;
  }

  // One question in the worker at a time; a newer one waits, and replaces any waiting one
  // (an answer to a question that has since changed is not drawn).
  var worker = null;
  var ready = false;
  var inFlight = null;
  var waiting = null;
  var asked = 0;

  function send() {
    inFlight = waiting;
    waiting = null;
    worker.postMessage({ type: 'ask', id: inFlight.id, state: inFlight.state });
  }

  function render() {
    var state = currentState();
    waiting = { id: ++asked, state: state, linked: writeFragment(state), started: performance.now() };
    document.body.setAttribute('data-ready', 'false');
    $('status').textContent = 'Answering\u2026 (' + state.robots.length + ' characters)';
    if (ready && !inFlight) send();
  }

  function onmessage(e) {
    var m = e.data;
    if (m.type === 'ready') {
      ready = true;
      document.body.setAttribute('data-oracle-thread', thread);
      PROFILES = m.profiles;
      PROFILES.forEach(function (p) { $('profile').appendChild(el('option', { value: p, text: p })); });
      $('profile').value = PROFILES.indexOf(wanted) >= 0 ? wanted : 'rfc9309';
      render();
    } else if (m.type === 'failed') {
      $('status').textContent = 'The oracle could not start: ' + m.message;
    } else if (m.type === 'answer') {
      var q = inFlight;
      inFlight = null;
      if (waiting) {
        send();
      } else if (m.error !== undefined) {
        $('status').textContent = 'The oracle failed on this question: ' + m.error;
      } else {
        draw(q, m.result);
      }
    }
  }

  function boot() {
    worker = startWorker(onmessage, function (why) {
      if (ready) {
        $('status').textContent = 'The oracle stopped: ' + why;
        return;
      }
      // No worker could run the oracle: run it on this thread instead.
      worker = inPage();
      worker.onmessage = onmessage;
      worker.postMessage({ type: 'init', wasm: WASM, fits: FITS });
    });
    worker.postMessage({ type: 'init', wasm: WASM, fits: FITS });
  }

  var timer = null;
  function later() {
    clearTimeout(timer);
    timer = setTimeout(render, 150);
  }
  ['robots', 'agent', 'urls'].forEach(function (id) { $(id).addEventListener('input', later); });
  $('profile').addEventListener('change', render);
  window.addEventListener('hashchange', function () {
    var state = readFragment();
    if (state) { fill(state); render(); }
  });

  $('status').textContent = 'Starting the oracle\u2026';
  fill(readFragment() || { robots: null, agent: null, urls: [], profile: null });
  boot();
})();
