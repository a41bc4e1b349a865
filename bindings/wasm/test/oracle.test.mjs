// The WebAssembly build of the oracle, from Node (node:test): RFC 9309's and Google's
// documented examples, the explanation `check --explain` prints, and bad input. Every
// verdict is the document's; reasons, clauses and lines are the oracle's explanation of it.
// Needs pkg/ (bindings/wasm/build.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  initSync, RobotsTxt, profiles, robotsTxtUrl, isValidProductToken, switchNames,
} from '../pkg/robots_oracle_wasm.js';

initSync({ module: readFileSync(new URL('../pkg/robots_oracle_wasm_bg.wasm', import.meta.url)) });

const utf8 = (s) => new TextEncoder().encode(s);
const robots = (body, profile = 'rfc9309') =>
  new RobotsTxt(typeof body === 'string' ? utf8(body) : body, profile);

// RFC 9309 §5.1, verbatim (figure indentation and closing "EOF" marker removed).
const SIMPLE = [
  'User-Agent: *', 'Disallow: *.gif$', 'Disallow: /example/', 'Allow: /publications/', '',
  'User-Agent: foobot', 'Disallow:/', 'Allow:/example/page.html', 'Allow:/example/allowed.gif', '',
  'User-Agent: barbot', 'User-Agent: bazbot', 'Disallow: /example/page.html', '',
  'User-Agent: quxbot', '',
].join('\n');

test('RFC 9309 §5.1: what each group may fetch, and the line that decides', () => {
  const r = robots(SIMPLE);
  const cases = [
    ['SomeBot', 'https://example.com/publications/x.html', true, 4],
    ['SomeBot', 'https://example.com/example/x.html', false, 3],
    ['SomeBot', 'https://example.com/a/b.gif', false, 2],
    ['SomeBot', 'https://example.com/other', true, undefined],
    ['foobot', 'https://example.com/example/page.html', true, 8],
    ['foobot', 'https://example.com/example/allowed.gif', true, 9],
    ['foobot', 'https://example.com/publications/', false, 7],
    ['barbot', 'https://example.com/example/page.html', false, 13],
    ['bazbot', 'https://example.com/example/other.html', true, undefined],
    ['quxbot', 'https://example.com/example/x.gif', true, undefined],
  ];
  for (const [agent, url, allowed, line] of cases) {
    assert.equal(r.allowed(agent, url), allowed, `${agent} ${url}`);
    const d = r.decide(agent, url);
    assert.equal(d.verdict, allowed ? 'allowed' : 'disallowed');
    assert.equal(d.line, line, `${agent} ${url}`);
    if (line !== undefined) {
      assert.equal(d.lineText, SIMPLE.split('\n')[line - 1]);
      assert.equal(d.rule.line, line);
      assert.equal(d.reason, 'longest-match');
      assert.equal(d.clause, 'R2.2.2-5');
    } else {
      assert.equal(d.rule, undefined);
      assert.equal(d.reason, 'no-matching-rule');
    }
  }
});

test('RFC 9309 §5.2: the longest match decides; the explanation is check --explain\'s', () => {
  const body = 'User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n';
  const d = robots(body).decide('foobot', '/example/page/disallowed.gif');
  assert.equal(d.verdict, 'disallowed');
  assert.deepEqual(d.candidates.map((c) => [c.line, c.kind]), [[2, 'allow'], [3, 'disallow']]);
  assert.deepEqual([...d.groups], [1]);
  assert.equal(d.globalGroup, false);
  assert.equal(d.explanation, [
    '  reason: longest-match (R2.2.2-5)',
    '  matched against: /example/page/disallowed.gif',
    '  group(s) at line(s) 1',
    '  matched line 2: allow: /example/page/ (normalised /example/page/, priority 14)',
    '  matched line 3: disallow: /example/page/disallowed.gif (normalised /example/page/disallowed.gif, priority 28)',
    '  winner: line 3',
    '',
  ].join('\n'));
});

test("Google's rule precedence examples (G-PREC-1..6), either line order", () => {
  const cases = [
    ['/page', ['allow: /p', 'disallow: /'], true, 'allow: /p'],
    ['/folder/page', ['allow: /folder', 'disallow: /folder'], true, 'allow: /folder'],
    ['/page.htm', ['allow: /page', 'disallow: /*.htm'], false, 'disallow: /*.htm'],
    ['/page.php5', ['allow: /page', 'disallow: /*.ph'], true, 'allow: /page'],
    ['/', ['allow: /$', 'disallow: /'], true, 'allow: /$'],
    ['/page.htm', ['allow: /$', 'disallow: /'], false, 'disallow: /'],
  ];
  for (const [url, rules, allowed, deciding] of cases) {
    for (const lines of [rules, [...rules].reverse()]) {
      const d = robots(`User-agent: *\n${lines.join('\n')}\n`, 'google').decide('Googlebot', url);
      assert.equal(d.allowed, allowed, `${url} ${lines}`);
      assert.equal(d.lineText, deciding);
    }
  }
});

test("Google's user-agent examples (G-UA-1, G-UA-2, G-MERGE-1)", () => {
  const ua = robots('user-agent: googlebot-news\ndisallow: /g1\n\nuser-agent: *\ndisallow: /g2\n\n'
    + 'user-agent: googlebot\ndisallow: /g3\n', 'google');
  for (const [agent, blocked] of [['googlebot-news', '/g1'], ['googlebot', '/g3'],
    ['Storebot-Google', '/g2'], ['othernewsbot', '/g2']]) {
    for (const url of ['/g1', '/g2', '/g3']) assert.equal(ua.allowed(agent, url), url !== blocked);
  }
  // Text after the token is ignored under Google's reading, not under RFC 9309's (R2.2.1-1).
  const body = 'user-agent: googlebot/1.2\ndisallow: /\n';
  assert.equal(robots(body, 'google').allowed('googlebot', '/x'), false);
  assert.equal(robots(body, 'rfc9309').allowed('googlebot', '/x'), true);
  const merge = robots('user-agent: googlebot-news\ndisallow: /fish\n\nuser-agent: *\n'
    + 'disallow: /carrots\n\nuser-agent: googlebot-news\ndisallow: /shrimp\n', 'google');
  assert.equal(merge.allowed('googlebot-news', '/shrimp'), false);
  assert.equal(merge.allowed('googlebot-news', '/carrots'), true);
  assert.equal(merge.allowed('otherbot', '/carrots'), false);
});

test('sitemaps, crawl-delay, BOM and diagnostics', () => {
  const r = robots('user-agent: otherbot\ndisallow: /kale\ncrawl-delay: 2.5\n\n'
    + 'sitemap: https://example.com/sitemap.xml\nsitemap: https://ja.example.org/テスト.xml\n');
  assert.deepEqual(r.sitemaps, ['https://example.com/sitemap.xml', 'https://ja.example.org/テスト.xml']);
  assert.equal(r.crawlDelay('otherbot'), '2.5');
  assert.equal(r.crawlDelay('anybot'), undefined);
  const bom = robots(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('User-agent: *\nDisallow: /x\n')]));
  assert.equal(bom.allowed('a', '/x'), false);
  assert.deepEqual(bom.diagnostics.map((d) => [d.line, d.clause]), [[1, 'G-FMT-3']]);
  assert.equal(bom.lineCount, 2);
  assert.deepEqual(bom.lines(1, 5), ['\ufeffUser-agent: *', 'Disallow: /x']);
  assert.deepEqual(bom.lines(2, 1), ['Disallow: /x']);
});

test('a body past 500 KiB: the rest is ignored, and a diagnostic says so (R2.5)', () => {
  const r = robots(`User-agent: *\n${'#'.repeat(600 * 1024)}\nDisallow: /late\n`);
  assert.equal(r.allowed('a', '/late'), true);
  assert.ok(r.diagnostics.some((d) => d.clause === 'R2.5-2'));
});

test('bad input: the oracle\'s refusals are thrown, with its message', () => {
  const r = robots('User-agent: *\nDisallow: /x\n');
  assert.throws(() => r.allowed('a', 'x'),
    { message: "cannot match 'x': expected an absolute URL such as https://example.com/a or a path starting with '/'" });
  assert.throws(() => r.decide('a', 'mailto:x'), /cannot match 'mailto:x'/);
  assert.throws(() => robots('', 'bing'), { message: "unknown profile 'bing': expected one of rfc9309, google, aipref" });
  assert.throws(() => robotsTxtUrl('/x'), /is not an absolute URL/);
  // Invalid UTF-8 is read, not refused: the rule is ignored and reported (R2.2-15).
  const bad = robots(Uint8Array.from([...utf8('User-agent: *\nDisallow: /caf'), 0xe9, ...utf8('\nDisallow: /x\n')]));
  assert.equal(bad.allowed('a', '/caf%E9'), true);
  assert.equal(bad.allowed('a', '/x'), false);
  assert.equal(bad.line(2), 'Disallow: /caf\ufffd');
  assert.equal(bad.line(99), undefined);
});

test('module functions', () => {
  assert.deepEqual(profiles(), ['rfc9309', 'google', 'aipref']);
  assert.equal(robotsTxtUrl('https://example.com/a/b?c'), 'https://example.com/robots.txt');
  assert.equal(isValidProductToken('Foo_Bar-Baz'), true);
  assert.equal(isValidProductToken('Foobot/2.1'), false);
});

test("a reading with the oracle's switches: first match (RFC 9309 §2.2.2's longest match off)", () => {
  const body = utf8('User-agent: *\nDisallow: /\nAllow: /page\n');
  assert.ok(switchNames().includes('precedence=first-match'));
  // Longest match: the allow rule is more specific. First match: line 2 comes first.
  assert.equal(new RobotsTxt(body, 'rfc9309').allowed('a', '/page'), true);
  const first = new RobotsTxt(body, 'rfc9309', ['precedence=first-match']).decide('a', '/page');
  assert.deepEqual([first.verdict, first.reason, first.line], ['disallowed', 'first-match', 2]);
  assert.throws(() => new RobotsTxt(body, 'rfc9309', ['precedence=random']),
    { message: "unknown switch 'precedence=random': see switchNames()" });
});

test('AI usage preferences (draft-ietf-aipref-attach-05 §3.1) under the aipref profile', () => {
  const r = robots('User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n'
    + 'Content-Usage: /ai-ok/ train-ai=y\n', 'aipref');
  const pairs = (u) => u.map((e) => [e.category, e.value]);
  // The most specific path decides; a disallowed URL has no preferences.
  assert.deepEqual(pairs(r.usage('AnyBot', '/page')), [['train-ai', 'n'], ['search', 'unknown']]);
  assert.deepEqual(pairs(r.usage('AnyBot', '/ai-ok/x')), [['train-ai', 'y'], ['search', 'unknown']]);
  assert.equal(r.usage('AnyBot', '/never/x'), undefined);
  assert.throws(() => r.usage('AnyBot', 'x'), /cannot match 'x'/);
});
