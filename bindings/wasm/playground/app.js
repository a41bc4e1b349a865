// The playground page: reads the question from the URL fragment
// (#robots=…&agent=…&url=…&url=…&profile=…, percent-encoded), asks the oracle (the
// WebAssembly build inlined above) under every profile, and shows the answers. It decides
// nothing itself: verdicts, reasons, clauses, deciding lines, crawl-delay, sitemaps and
// diagnostics are the oracle's. Runs from file:// (no fetch: the module is inlined).
'use strict';
(function () {
  var FILE_LINES_SHOWN = 1000; // the file view lists this many lines, then the deciding ones
  var DEFAULT = {
    robots: 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nSitemap: https://example.com/sitemap.xml\n',
    agent: 'FooBot',
    urls: ['https://example.com/private/page', 'https://example.com/private/open/x'],
    profile: 'rfc9309',
  };

  var b64 = document.getElementById('oracle-wasm').textContent.trim();
  var raw = atob(b64);
  var bytes = new Uint8Array(raw.length);
  for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  wasm_bindgen.initSync({ module: bytes });
  var oracle = wasm_bindgen;
  var PROFILES = oracle.profiles();
  // The parsers' fitted readings (`playground --fits`, from `matrix --fingerprint`).
  var FITS = JSON.parse(document.getElementById('fits').textContent);
  var SWITCHES = oracle.switchNames();

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

  PROFILES.forEach(function (p) { $('profile').appendChild(el('option', { value: p, text: p })); });

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
    $('profile').value = PROFILES.indexOf(state.profile) >= 0 ? state.profile : 'rfc9309';
  }

  function showLine(n) {
    var li = document.querySelector('#file li[data-line="' + n + '"]');
    if (li) { li.focus(); li.scrollIntoView({ block: 'center' }); }
  }

  function answerRow(state, url, profile, parsed, first) {
    var row = el('tr', { 'data-testid': 'answer', 'data-url': url, 'data-profile': profile,
      className: first ? 'first' : '' });
    row.appendChild(el('th', { scope: 'row', text: profile }));
    var d;
    try {
      d = parsed[profile].decide(state.agent, url);
    } catch (e) {
      row.setAttribute('data-verdict', 'error');
      row.appendChild(el('td', { className: 'error', colspan: '4', role: 'alert',
        text: 'The oracle refuses this URL: ' + e.message }));
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
    var u = profile === 'aipref' ? parsed[profile].usage(state.agent, url) : null;
    if (profile !== 'aipref') usage.textContent = 'not read under ' + profile;
    else if (u === undefined) usage.textContent = 'none: the URL may not be crawled';
    else usage.textContent = u.map(function (e) { return e.category + '=' + e.value; }).join(', ');
    if (u) usage.setAttribute('data-usage', u.map(function (e) { return e.category + '=' + e.value; }).join(','));
    row.appendChild(usage);
    var more = el('tr', {}, [el('td', { colspan: '5' }, [
      el('details', first ? { open: '' } : {}, [
        el('summary', { text: 'Explanation under ' + profile }),
        el('pre', { 'data-testid': 'explanation', text: d.verdict + ' ' + url + '\n' + d.explanation }),
      ]),
    ])]);
    return [row, more, d];
  }

  function render() {
    var state = currentState();
    var linked = writeFragment(state);
    var started = performance.now();
    var body = new TextEncoder().encode(state.robots);
    var parsed = {};
    PROFILES.forEach(function (p) { parsed[p] = new oracle.RobotsTxt(body, p); });
    var order = [state.profile].concat(PROFILES.filter(function (p) { return p !== state.profile; }));

    var answers = $('answers');
    answers.textContent = '';
    var deciding = {};
    if (!state.urls.length) answers.appendChild(el('p', { text: 'Enter a URL to ask about.' }));
    state.urls.forEach(function (url) {
      var table = el('table', {}, [
        el('caption', { className: 'sr-only', text: 'Verdicts for ' + url + ' by profile' }),
        el('thead', {}, [el('tr', {}, ['Profile', 'Verdict', 'Reason (clause)', 'Deciding line', 'AI usage preferences']
          .map(function (h) { return el('th', { scope: 'col', text: h }); }))]),
      ]);
      var tbody = el('tbody');
      order.forEach(function (p, k) {
        var r = answerRow(state, url, p, parsed, k === 0);
        tbody.appendChild(r[0]);
        if (r[1]) tbody.appendChild(r[1]);
        if (k === 0 && r[2] && r[2].line !== undefined) deciding[r[2].line] = true;
      });
      table.appendChild(tbody);
      answers.appendChild(el('article', {}, [el('h3', {}, [el('span', { text: 'URL ' }),
        el('code', { text: url })]), table]));
    });

    var decided = performance.now();
    renderFile(parsed[state.profile], deciding);
    renderAbout(state, parsed, order);
    renderOthers(state, body);
    PROFILES.forEach(function (p) { parsed[p].free(); });
    var ms = performance.now() - started;
    document.body.setAttribute('data-ready', 'true');
    document.body.setAttribute('data-ms', ms.toFixed(1));
    document.body.setAttribute('data-decide-ms', (decided - started).toFixed(1));
    $('status').textContent = 'Decided in ' + ms.toFixed(1) + ' ms (' + body.length + ' bytes, '
      + state.urls.length + ' URL(s), ' + PROFILES.length + ' profiles).'
      + (linked ? '' : ' This question is too long for a link.');
  }

  function renderFile(robots, deciding) {
    var file = $('file');
    file.textContent = '';
    var count = robots.lineCount;
    var shown = Math.min(count, FILE_LINES_SHOWN);
    var first = robots.lines(1, shown);
    var add = function (n) {
      var text = n <= first.length ? first[n - 1] : robots.line(n);
      var li = el('li', { value: String(n), 'data-line': String(n), tabindex: '-1',
        className: deciding[n] ? 'decides' : '', text: text === '' ? '\u00a0' : text });
      if (deciding[n]) li.setAttribute('aria-label', 'line ' + n + ', deciding: ' + text);
      file.appendChild(li);
    };
    for (var n = 1; n <= shown; n++) add(n);
    if (count > shown) {
      file.appendChild(el('li', { className: 'gap', text: (count - shown)
        + ' more lines not listed; the deciding ones follow.' }));
      Object.keys(deciding).map(Number).filter(function (n) { return n > shown; })
        .sort(function (a, b) { return a - b; }).forEach(add);
    }
  }

  function renderAbout(state, parsed, order) {
    var about = $('about');
    about.textContent = '';
    var rows = order.map(function (p) {
      var cd = parsed[p].crawlDelay(state.agent);
      return el('tr', { 'data-testid': 'crawl-delay', 'data-profile': p }, [
        el('th', { scope: 'row', text: p }),
        el('td', { text: cd === undefined ? 'none for ' + state.agent : cd + ' (as written)' })]);
    });
    about.appendChild(el('h3', { text: 'Crawl-delay for ' + state.agent }));
    about.appendChild(el('table', {}, [el('tbody', {}, rows)]));
    var sitemaps = parsed[state.profile].sitemaps;
    about.appendChild(el('h3', { text: 'Sitemaps (' + sitemaps.length + ')' }));
    about.appendChild(sitemaps.length
      ? el('ul', { 'data-testid': 'sitemaps' }, sitemaps.map(function (s) { return el('li', {}, [el('code', { text: s })]); }))
      : el('p', { text: 'none' }));
    var diags = parsed[state.profile].diagnostics;
    about.appendChild(el('h3', { text: 'Diagnostics under ' + state.profile + ' (' + diags.length + ')' }));
    about.appendChild(diags.length
      ? el('ul', { 'data-testid': 'diagnostics' }, diags.map(function (d) {
        return el('li', { 'data-clause': d.clause, text: 'line ' + d.line + ': ' + d.message + ' (' + d.clause + ')' });
      }))
      : el('p', { text: 'none: every line was read as written' }));
  }

  // One row per fitted parser: the oracle's verdict under that parser's fitted reading (its
  // rule-level switches; fetch-level ones do not change a verdict on a body in hand).
  function renderOthers(state, body) {
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
    FITS.forEach(function (fit) {
      var rules = fit.changes.filter(function (c) { return SWITCHES.indexOf(c) >= 0; });
      var pct = fit.scored ? (100 * fit.agree / fit.scored).toFixed(1) : '0.0';
      var label = fit.adapter + ' \u2248 ' + [fit.base].concat(fit.changes).join(' + ')
        + ' (prediction; the reading agreed on ' + fit.agree + ' of ' + fit.scored + ' checks, ' + pct + ' %)';
      var row = el('tr', { 'data-testid': 'prediction', 'data-adapter': fit.adapter }, [
        el('th', { scope: 'row', text: label })]);
      var robots;
      try {
        robots = new oracle.RobotsTxt(body, fit.base, rules);
      } catch (e) {
        row.appendChild(el('td', { colspan: String(state.urls.length), text: e.message }));
        tbody.appendChild(row);
        return;
      }
      state.urls.forEach(function (url) {
        var cell;
        try {
          var d = robots.decide(state.agent, url);
          cell = el('td', { className: 'verdict ' + d.verdict, 'data-url': url, 'data-verdict': d.verdict,
            text: (d.allowed ? '\u2713 ' : '\u2717 ') + d.verdict + ' (predicted)' });
        } catch (e) {
          cell = el('td', { className: 'error', 'data-url': url, 'data-verdict': 'error', text: e.message });
        }
        row.appendChild(cell);
      });
      robots.free();
      tbody.appendChild(row);
    });
    others.appendChild(el('table', {}, [
      el('caption', { className: 'sr-only', text: 'Predicted verdicts of other parsers' }),
      el('thead', {}, [head]), tbody]));
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

  fill(readFragment() || { robots: null, agent: null, urls: [], profile: null });
  render();
})();
