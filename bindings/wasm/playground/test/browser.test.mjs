// The playground in a real browser: Debian's chromium, headless, driven by playwright-core
// (no browser download). Opens the page written by `robots-conformance playground` from a
// fragment link and reads the answers from the DOM: RFC 9309's §5.1 example and Google's
// documented examples (every verdict is the document's), the deciding lines highlighted,
// state written back to the fragment, a file past 500 KiB, and the page answering input while
// the oracle (in its Web Worker) is deciding a large file. Keeps a screenshot.
//
//   PLAYGROUND=/path/to/index.html [CHROMIUM=/usr/bin/chromium] [SCREENSHOT=out.png] \
//     node --test browser.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const PAGE = process.env.PLAYGROUND;
const SHOT = resolve(process.env.SCREENSHOT || 'playground.png');
let browser;
let page;

const link = (robots, agent, urls, profile) => `${pathToFileURL(resolve(PAGE)).href}#${[
  `robots=${encodeURIComponent(robots)}`, `agent=${encodeURIComponent(agent)}`,
  ...urls.map((u) => `url=${encodeURIComponent(u)}`), `profile=${encodeURIComponent(profile)}`,
].join('&')}`;

async function open(robots, agent, urls, profile) {
  await page.goto(link(robots, agent, urls, profile));
  await page.waitForSelector('body[data-ready="true"]');
  return answers();
}

// Every answer row: { url, profile, verdict, reason, line, text }.
function answers() {
  return page.$$eval('[data-testid="answer"]', (rows) => rows.map((r) => ({
    url: r.dataset.url,
    profile: r.dataset.profile,
    verdict: r.dataset.verdict,
    reason: r.dataset.reason,
    line: r.dataset.line === undefined ? undefined : Number(r.dataset.line),
    text: r.querySelector('[data-testid="deciding-line"]')?.textContent,
  })));
}

const find = (rows, url, profile) => rows.find((r) => r.url === url && r.profile === profile);

before(async () => {
  assert.ok(PAGE, 'set PLAYGROUND to the index.html that `robots-conformance playground` wrote');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
  page.on('pageerror', (e) => { throw e; });
});

after(async () => { await browser?.close(); });

const SIMPLE = [
  'User-Agent: *', 'Disallow: *.gif$', 'Disallow: /example/', 'Allow: /publications/', '',
  'User-Agent: foobot', 'Disallow:/', 'Allow:/example/page.html', 'Allow:/example/allowed.gif', '',
  'User-Agent: barbot', 'User-Agent: bazbot', 'Disallow: /example/page.html', '',
  'User-Agent: quxbot', '',
].join('\n');

test('RFC 9309 §5.1 from a fragment link: answers on load, the deciding line highlighted', async () => {
  const urls = ['https://example.com/example/page.html', 'https://example.com/example/allowed.gif',
    'https://example.com/publications/', 'https://example.com/robots.txt'];
  const rows = await open(SIMPLE, 'foobot', urls, 'rfc9309');
  // foobot "only has access to two URL path prefixes": /example/page.html and allowed.gif;
  // /robots.txt is implicitly allowed (R2.2.2-10).
  const want = [['allowed', 8, 'Allow:/example/page.html'], ['allowed', 9, 'Allow:/example/allowed.gif'],
    ['disallowed', 7, 'Disallow:/'], ['allowed', undefined, undefined]];
  urls.forEach((url, i) => {
    const r = find(rows, url, 'rfc9309');
    assert.equal(r.verdict, want[i][0], url);
    assert.equal(r.line, want[i][1], url);
    assert.equal(r.text, want[i][2], url);
  });
  assert.equal(find(rows, urls[3], 'rfc9309').reason, 'robots-txt-path');
  // Every profile answers; Google's reading agrees on the example's own URLs (the implicit
  // allowance of /robots.txt is RFC 9309's rule, R2.2.2-10).
  urls.slice(0, 3).forEach((url, i) => assert.equal(find(rows, url, 'google').verdict, want[i][0]));
  const marked = await page.$$eval('#file li.decides', (lis) => lis.map((li) => Number(li.dataset.line)));
  assert.deepEqual(marked.sort(), [7, 8, 9]);
  const explanation = await page.textContent('[data-testid="explanation"]');
  assert.match(explanation, /^allowed https:\/\/example\.com\/example\/page\.html\n {2}reason: longest-match \(R2\.2\.2-5\)/);
});

test("Google's rule precedence examples (G-PREC-3, G-PREC-4) under the google profile", async () => {
  let rows = await open('User-agent: *\nallow: /page\ndisallow: /*.htm\n', 'Googlebot',
    ['https://example.com/page.htm'], 'google');
  assert.deepEqual([find(rows, 'https://example.com/page.htm', 'google').verdict,
    find(rows, 'https://example.com/page.htm', 'google').text], ['disallowed', 'disallow: /*.htm']);
  rows = await open('User-agent: *\nallow: /page\ndisallow: /*.ph\n', 'Googlebot',
    ['https://example.com/page.php5'], 'google');
  assert.deepEqual([find(rows, 'https://example.com/page.php5', 'google').verdict,
    find(rows, 'https://example.com/page.php5', 'google').text], ['allowed', 'allow: /page']);
});

test("Google's G-UA-2 shows the profiles apart; sitemaps and crawl-delay are listed", async () => {
  const body = 'user-agent: googlebot/1.2\ndisallow: /\ncrawl-delay: 5\n\nsitemap: https://example.com/sitemap.xml\n';
  const rows = await open(body, 'googlebot', ['/x'], 'google');
  // Google: text after the token is ignored, so the group names googlebot. RFC 9309: the
  // value is not a product token (R2.2.1-1) and names no crawler.
  assert.equal(find(rows, '/x', 'google').verdict, 'disallowed');
  assert.equal(find(rows, '/x', 'rfc9309').verdict, 'allowed');
  assert.equal(find(rows, '/x', 'rfc9309').reason, 'no-group');
  assert.deepEqual(await page.$$eval('[data-testid="sitemaps"] li', (l) => l.map((x) => x.textContent)),
    ['https://example.com/sitemap.xml']);
  assert.match(await page.textContent('[data-testid="crawl-delay"][data-profile="google"]'), /5 \(as written\)/);
  await mkdirSync(dirname(SHOT), { recursive: true });
  await page.screenshot({ path: SHOT, fullPage: true });
});

test('editing by keyboard answers again and writes the question back to the fragment', async () => {
  await open('User-agent: FooBot\nDisallow: /private\n', 'FooBot', ['/private/x'], 'rfc9309');
  assert.equal(find(await answers(), '/private/x', 'rfc9309').verdict, 'disallowed');
  await page.focus('#agent');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('BarBot');
  await page.waitForFunction(() => location.hash.includes('agent=BarBot'));
  await page.waitForFunction(() => document.querySelector('[data-testid="answer"]').dataset.verdict === 'allowed');
  const r = find(await answers(), '/private/x', 'rfc9309');
  assert.deepEqual([r.verdict, r.reason], ['allowed', 'no-group']);
  // The link now asks the new question: reopening it gives the same answer.
  const hash = await page.evaluate(() => location.hash);
  await page.goto('about:blank');
  await page.goto(`${pathToFileURL(resolve(PAGE)).href}${hash}`);
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(find(await answers(), '/private/x', 'rfc9309').verdict, 'allowed');
});

test('a pasted file past 500 KiB is decided, and the page says what was cut', async () => {
  await open('User-agent: *\nDisallow: /x\n', 'FooBot', ['/late', '/x'], 'rfc9309');
  const big = `User-agent: *\nDisallow: /x\n${'Disallow: /filler/path/number\n'.repeat(20000)}Disallow: /late\n`;
  // As a paste: the value set at once, then one input event.
  await page.$eval('#robots', (area, text) => {
    area.value = text;
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, big);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="diagnostics"] li[data-clause="R2.5-2"]').length === 1);
  const rows = await answers();
  // R2.5: past the parse limit the rest is ignored (the oracle's reading): /late is allowed.
  assert.equal(find(rows, '/late', 'rfc9309').verdict, 'allowed');
  assert.equal(find(rows, '/x', 'rfc9309').verdict, 'disallowed');
  const ms = await page.getAttribute('body', 'data-ms');
  const decide = await page.getAttribute('body', 'data-decide-ms');
  const draw = await page.getAttribute('body', 'data-draw-ms');
  console.log(`# ${big.length} bytes: parsed and decided for 2 URLs under every profile in ${decide} ms `
    + `(in the worker), answers on the page ${ms} ms after the question, of which ${draw} ms drawing `
    + 'on the page\'s thread (reported, not asserted)');
});

test('how other parsers read it: each fitted reading predicts, labelled as a prediction', async (t) => {
  const fits = await page.evaluate(() => JSON.parse(document.getElementById('fits').textContent));
  if (!fits.length) {
    t.skip('no fits built into this page (playground --fits)');
    return;
  }
  // Longest match (RFC 9309 R2.2.2-5) allows /page; a first-match reader (urllib.robotparser
  // reads rules in file order, adapters/ext/README.md) disallows it.
  await open('User-agent: *\nDisallow: /\nAllow: /page\n', 'FooBot', ['/page'], 'rfc9309');
  const rows = await page.$$eval('[data-testid="prediction"]', (trs) => trs.map((tr) => ({
    adapter: tr.dataset.adapter,
    label: tr.querySelector('th').textContent,
    verdict: tr.querySelector('td').dataset.verdict,
  })));
  assert.equal(rows.length, fits.length);
  for (const r of rows) assert.match(r.label, /prediction; the reading agreed on \d+ of \d+ checks/);
  for (const r of rows) assert.ok(['allowed', 'disallowed'].includes(r.verdict), r.adapter);
  const urllib = fits.find((f) => f.adapter === 'python-urllib');
  if (urllib) {
    assert.ok(urllib.changes.includes('precedence=first-match'), urllib.changes.join(' '));
    assert.equal(rows.find((r) => r.adapter === 'python-urllib').verdict, 'disallowed');
  }
});

test('AI usage preferences under the aipref profile (draft-ietf-aipref-attach-05 §3.1)', async () => {
  const body = 'User-Agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n'
    + 'Content-Usage: /ai-ok/ train-ai=y\n';
  await open(body, 'AnyBot', ['/ai-ok/x', '/page', '/never/x'], 'aipref');
  const usage = (url) => page.$eval(
    `[data-testid="answer"][data-profile="aipref"][data-url="${url}"] [data-testid="usage"]`,
    (td) => [td.dataset.usage, td.textContent]);
  // The most specific path decides; "no preferences are implied" for a disallowed URL.
  assert.equal((await usage('/ai-ok/x'))[0], 'train-ai=y,search=unknown');
  assert.equal((await usage('/page'))[0], 'train-ai=n,search=unknown');
  assert.deepEqual(await usage('/never/x'), [undefined, 'none: the URL may not be crawled']);
});

test('the page handles input while a large file is being decided (the oracle runs in a worker)', async () => {
  await open('User-agent: *\nDisallow: /x\n', 'FooBot', ['/x'], 'rfc9309');
  // From file://, Chromium runs the oracle in the Blob-URL worker, not on the page's thread.
  assert.equal(await page.getAttribute('body', 'data-oracle-thread'), 'worker');
  // A log kept by the page: each change of body[data-ready] (false: a question is with the
  // oracle; true: its answer is drawn), and each input event on the agent field with the state
  // it was handled in. When a question is sent, an input event is queued at once (the next
  // task): with the oracle on the page's thread it could only run after the answer is drawn;
  // with the worker it runs while the oracle is still deciding. No timing is measured.
  await page.evaluate(() => {
    window.__log = [];
    const agent = document.getElementById('agent');
    agent.addEventListener('input', () => window.__log.push(['input', document.body.dataset.ready]));
    new MutationObserver(() => {
      const ready = document.body.dataset.ready;
      window.__log.push(['ready', ready]);
      if (ready === 'false') setTimeout(() => agent.dispatchEvent(new Event('input', { bubbles: true })), 0);
    }).observe(document.body, { attributes: true, attributeFilter: ['data-ready'] });
  });
  const urls = Array.from({ length: 40 }, (_, i) => `/filler/path/${i}`).join('\n');
  // Just under 500 KiB (493,026 bytes), so every line is read.
  const big = `User-agent: *\nDisallow: /x\n${'Disallow: /filler/path/number\n'.repeat(17000)}`;
  await page.$eval('#urls', (area, text) => { area.value = text; }, urls);
  await page.$eval('#robots', (area, text) => {
    area.value = text;
    area.dispatchEvent(new Event('input', { bubbles: true }));
  }, big);
  await page.waitForFunction(() => window.__log.some(([k]) => k === 'input'));
  const log = await page.evaluate(() => window.__log.slice());
  assert.deepEqual(log.slice(0, 2), [['ready', 'false'], ['input', 'false']], JSON.stringify(log));
  // Typing goes on meanwhile; the answer drawn last is that of the question asked last.
  await page.focus('#agent');
  await page.keyboard.type('Bot');
  await page.waitForFunction(() => location.hash.includes('agent=FooBotBot'));
  await page.waitForSelector('body[data-ready="true"]');
  const rows = await answers();
  assert.equal(rows.filter((r) => r.profile === 'rfc9309').length, 40);
  // No rule is a prefix of /filler/path/0 (R2.2.2-5): allowed, no rule decided.
  assert.deepEqual([find(rows, '/filler/path/0', 'rfc9309').verdict,
    find(rows, '/filler/path/0', 'rfc9309').line], ['allowed', undefined]);
});

test('where no worker can start, the same oracle answers on the page\'s thread', async () => {
  const other = await browser.newPage();
  other.on('pageerror', (e) => { throw e; });
  try {
    await other.addInitScript(() => { window.Worker = undefined; });
    await other.goto(link('User-agent: *\nDisallow: /\nAllow: /page\n', 'FooBot', ['/page', '/x'], 'rfc9309'));
    await other.waitForSelector('body[data-ready="true"]');
    assert.equal(await other.getAttribute('body', 'data-oracle-thread'), 'page');
    const verdicts = await other.$$eval('[data-testid="answer"][data-profile="rfc9309"]',
      (rows) => rows.map((r) => [r.dataset.url, r.dataset.verdict, r.dataset.line]));
    // Longest match (R2.2.2-5): line 3 allows /page, line 2 disallows the rest.
    assert.deepEqual(verdicts, [['/page', 'allowed', '3'], ['/x', 'disallowed', '2']]);
  } finally {
    await other.close();
  }
});
