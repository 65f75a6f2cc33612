#!/usr/bin/env node
// Reading pages' first load (issue 16, point 7): a measuring script, not a
// test.
//
//   node end2end/bench/pages.js http://127.0.0.1:PORT
//
// For each reading page an anonymous visitor opens (overview, case list,
// case page, leaderboard, drill-down, model page), five times each in a
// fresh browser context (empty cache), in headless Chromium:
//   - bytes transferred (the encoded length of every response, headers
//     included, as Chromium's network events count it) and requests, until
//     the network has been idle for 500 ms;
//   - the milliseconds from navigation start to the first animation frame
//     at which the page's main table (or, without one, its main heading) is
//     in the DOM with a size: a frame is drawn right after, so this is when
//     the reader sees it;
//   - the first-contentful-paint.
// It prints one line per page: median bytes and requests, median and max
// of the table time, median FCP; then the wasm share of the bytes.
// Exit status: 0 when measured, 2 when a page could not be loaded.

const { chromium } = require('playwright-core');

const BASE = (process.argv[2] || process.env.BASE || '').replace(/\/$/, '');
const RUNS = Number(process.env.RUNS || 5);

async function discover(browser) {
  const page = await browser.newPage();
  await page.goto(`${BASE}/leaderboard`);
  const cell = await page.locator('a[href^="/leaderboard/items?"]').first().getAttribute('href');
  const model = await page.locator('a[href^="/models/"]').first().getAttribute('href');
  await page.goto(`${BASE}/cases`);
  const kase = await page.locator('a[href^="/cases/"]').first().getAttribute('href');
  await page.close();
  return [
    ['overview', '/', 'main table, main h1'],
    ['case list', '/cases', 'main table'],
    ['case page', kase, 'main .dialogue-grid, main h1'],
    ['leaderboard', '/leaderboard', 'main table'],
    ['drill-down', cell, 'main table'],
    ['model page', model, 'main table, main h1'],
  ];
}

// Runs in the page before its own scripts: records when the selector first
// has a box at an animation frame.
function watch(selector) {
  const tick = () => {
    const el = document.querySelector(selector);
    if (el && el.getBoundingClientRect().height > 0) {
      window.__visibleAt = performance.now();
      return;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

async function once(browser, path, selector) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(watch, selector);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  // Contexts share the browser's memory cache: a first load starts from none.
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const urls = new Map();
  let bytes = 0;
  let requests = 0;
  let wasm = 0;
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e) => {
    requests += 1;
    bytes += e.encodedDataLength;
    if ((urls.get(e.requestId) || '').includes('.wasm')) wasm += e.encodedDataLength;
  });
  const response = await page.goto(BASE + path, { waitUntil: 'networkidle' });
  if (!response || !response.ok()) throw new Error(`${path}: HTTP ${response ? response.status() : 'none'}`);
  await page.waitForFunction(() => window.__visibleAt !== undefined, null, { timeout: 10_000 });
  const visible = await page.evaluate(() => window.__visibleAt);
  const fcp = await page.evaluate(() => {
    const p = performance.getEntriesByName('first-contentful-paint')[0];
    return p ? p.startTime : NaN;
  });
  await context.close();
  return { bytes, requests, wasm, visible, fcp };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let status = 0;
  try {
    const pages = await discover(browser);
    console.log(`first load, anonymous, empty cache, median of ${RUNS} · ${BASE}`);
    console.log('page          path                                              KB    reqs  wasm KB  table ms (max)  FCP ms');
    console.log('-'.repeat(112));
    for (const [name, path, selector] of pages) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(browser, path, selector));
      const kb = median(runs.map((r) => r.bytes)) / 1024;
      const line = [
        name.padEnd(13),
        decodeURIComponent(path).slice(0, 48).padEnd(48),
        kb.toFixed(1).padStart(7),
        String(median(runs.map((r) => r.requests))).padStart(6),
        (median(runs.map((r) => r.wasm)) / 1024).toFixed(1).padStart(8),
        `${median(runs.map((r) => r.visible)).toFixed(0)} (${Math.max(...runs.map((r) => r.visible)).toFixed(0)})`.padStart(15),
        median(runs.map((r) => r.fcp)).toFixed(0).padStart(7),
      ];
      console.log(line.join('  '));
    }
  } catch (e) {
    console.error(`measurement failed: ${e.message.split('\n')[0]}`);
    status = 2;
  }
  await browser.close();
  process.exit(status);
})();
