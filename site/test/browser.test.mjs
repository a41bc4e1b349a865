// The results site in a real browser: Debian's chromium, headless, driven by playwright-core
// (no browser download). Opens the index and the top-ranked parser's page written by
// `robots-conformance site` from file://, checks they render (landmarks, the ranking in score
// order, the certificate), that every link resolves to a file of the site, that the badges
// render, that the keyboard reaches the content, and that nothing is fetched from elsewhere.
// Keeps screenshots.
//
//   SITE=/path/to/site [CHROMIUM=/usr/bin/chromium] [SHOTS=dir] node --test browser.test.mjs
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const SITE = process.env.SITE;
const SHOTS = resolve(process.env.SHOTS || '.');
let browser;
let page;
const requested = [];

const url = (rel) => pathToFileURL(join(resolve(SITE), rel)).href;

before(async () => {
  assert.ok(SITE, 'set SITE to the folder `robots-conformance site --out` wrote');
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on('pageerror', (e) => { throw e; });
  page.on('request', (r) => requested.push(r.url()));
});

after(async () => { await browser?.close(); });

// Every link and image of the open page resolves to an existing file of the site.
async function linksResolve() {
  const targets = await page.$$eval('a[href], img[src], link[href]',
    (els) => els.map((e) => e.href || e.src));
  assert.ok(targets.length > 3, `${targets.length} links`);
  for (const t of targets) {
    assert.ok(t.startsWith('file://'), `${t} leaves the site`);
    const file = fileURLToPath(t.split('#')[0]);
    assert.ok(existsSync(file), `${page.url()}: ${t} does not exist`);
  }
  return targets;
}

// Every badge on the open page is loaded and drawn.
async function badgesRender() {
  const badges = await page.$$eval('img.badge', (imgs) => imgs.map((i) => ({
    src: i.getAttribute('src'), alt: i.alt, ok: i.complete && i.naturalWidth > 0, w: i.naturalWidth,
  })));
  assert.ok(badges.length > 0, 'no badge');
  for (const b of badges) {
    assert.ok(b.ok, `${b.src} did not render`);
    assert.match(b.alt, /^RFC 9309 MUST: (\d+ %|not tested)$/, b.src);
  }
  return badges;
}

// The page's landmarks and names: one main, a named navigation, captions, alt texts.
async function accessible() {
  assert.equal(await page.locator('main#main').count(), 1);
  assert.equal(await page.locator('nav[aria-label="Site"]').count(), 1);
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
  const uncaptioned = await page.$$eval('table', (ts) => ts.filter((t) => !t.querySelector('caption')).length);
  assert.equal(uncaptioned, 0, 'every table has a caption');
  const noAlt = await page.$$eval('img', (is) => is.filter((i) => !i.alt).length);
  assert.equal(noAlt, 0, 'every image has alt text');
}

let top;

test('the index renders the ranking in score order, with badges and working links', async () => {
  await page.goto(url('index.html'));
  await page.waitForLoadState('load');
  await accessible();
  const rows = await page.$$eval('#ranking tbody tr', (trs) => trs.map((tr) => ({
    parser: tr.dataset.parser,
    href: tr.querySelector('th a').getAttribute('href'),
    must: tr.children[4].textContent,
  })));
  assert.ok(rows.length >= 3, JSON.stringify(rows));
  const score = (s) => (s === '–' ? -1 : Number.parseFloat(s));
  for (let i = 1; i < rows.length; i += 1) {
    assert.ok(score(rows[i - 1].must) >= score(rows[i].must), `ranked out of order: ${JSON.stringify(rows)}`);
  }
  // The oracle follows every MUST of its own suite (when the matrix ran it, as site/ci.sh's does).
  const reference = rows.find((r) => r.parser === 'reference');
  if (reference) assert.equal(reference.must, '100.0 %');
  await linksResolve();
  const badges = await badgesRender();
  assert.equal(badges.length, rows.length);
  top = rows[0];
  await page.screenshot({ path: join(SHOTS, 'index.png'), fullPage: true });
});

test('the keyboard reaches the content first: the skip link moves focus to main', async () => {
  await page.goto(url('index.html'));
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Skip to the content');
  await page.keyboard.press('Enter');
  assert.ok(page.url().endsWith('#main'), page.url());
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
});

test("the top parser's page renders its certificate by clause, badge, and links", async () => {
  assert.ok(top, 'the index test ran first');
  await page.goto(url(top.href));
  await page.waitForLoadState('load');
  await accessible();
  assert.equal(await page.textContent('h1'), top.parser);
  const clauses = await page.$$eval('#clauses tbody tr', (trs) => trs.map((tr) => tr.dataset.clause));
  assert.ok(clauses.length > 10, `${clauses.length} clauses`);
  assert.match(await page.textContent('#tiers'), /follows every MUST/);
  await badgesRender();
  const links = await linksResolve();
  assert.ok(links.some((l) => l.includes('/clauses/')), 'links to clause pages');
  await page.screenshot({ path: join(SHOTS, 'parser.png'), fullPage: false });
  // A clause page from it, and its list of followers.
  await page.click(`#clauses tbody tr[data-clause="${clauses[0]}"] a`);
  await page.waitForLoadState('load');
  assert.ok(await page.locator('#followers tbody tr').count() >= 3);
  await linksResolve();
});

// Fonts differ between machines (a CI machine's may be wider than this one's), so the pages
// must fit by construction, not by the width of one font: each is checked at a phone's width,
// at WCAG 1.4.10's 320 CSS px, and with text enlarged by a quarter (as a wider font or a
// reader's setting would).
test('on a phone-sized screen every page fits its width, at larger text too (tables scroll inside their region)', async () => {
  assert.ok(top, 'the index test ran first');
  for (const [width, text] of [[390, 1], [320, 1], [390, 1.25]]) {
    const phone = await browser.newPage({ viewport: { width, height: 844 }, deviceScaleFactor: 2 });
    phone.on('request', (r) => requested.push(r.url()));
    for (const path of ['index.html', top.href]) {
      await phone.goto(url(path));
      await phone.addStyleTag({ content: `html { font-size: ${100 * text}%; } body { font-size: ${text}rem; }` });
      const wide = await phone.evaluate(() => {
        const over = document.documentElement.scrollWidth - window.innerWidth;
        const culprits = [...document.querySelectorAll('body *')]
          .filter((e) => !e.closest('.scroll') && e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 3)
          .map((e) => `${e.tagName.toLowerCase()} "${(e.textContent || '').slice(0, 40)}"`);
        return { over, culprits };
      });
      assert.ok(wide.over <= 1, `${path} at ${width}px, text x${text}: ${wide.over}px wider than the screen (${wide.culprits.join('; ')})`);
      if (width === 390 && text === 1 && path === 'index.html') {
        await phone.screenshot({ path: join(SHOTS, 'index-phone.png'), fullPage: false });
      }
    }
    await phone.close();
  }
});

test('nothing was fetched from anywhere but the site folder', () => {
  assert.ok(requested.length > 0);
  const elsewhere = requested.filter((u) => !u.startsWith('file://'));
  assert.deepEqual(elsewhere, []);
});
