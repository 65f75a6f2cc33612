import { test, expect } from './helpers';
import { Browser } from '@playwright/test';

// Issue 16: an anonymous reader's first load of every reading page stays
// under 400 KB transferred (the encoded bytes of every response, as
// Chromium's network events count them, until the network is idle), loads
// no wasm, keeps its live badge live through live.js, and reads the same
// with JavaScript off.
//
// Runs after security.spec and simulator.spec (file names run in order, one
// worker): the run it stores adds a LexPilot model, which the review specs'
// judge samples must not see.

const BUDGET = 400 * 1024;

async function pages(browser: Browser): Promise<[string, string, string][]> {
  const page = await browser.newPage();
  await page.goto('/leaderboard');
  const cell = await page.locator('a[href^="/leaderboard/items?"]').first().getAttribute('href');
  const model = await page.locator('a[href^="/models/"]').first().getAttribute('href');
  await page.close();
  return [
    ['overview', '/', 'main h1'],
    ['case list', '/cases', 'main table'],
    ['case page', '/cases/DEMO-0001', 'main .dialogue-grid'],
    ['leaderboard', '/leaderboard', 'main table'],
    ['drill-down', cell!, 'main table'],
    ['model page', model!, 'main h1'],
  ];
}

test('every reading page loads under its byte budget without wasm, and reads without JavaScript', async ({ browser }) => {
  test.setTimeout(120_000);
  for (const [name, path, selector] of await pages(browser)) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // Contexts share the browser's memory cache: a first load starts from none.
    await cdp.send('Network.clearBrowserCache');
    const urls = new Map<string, string>();
    let bytes = 0;
    cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url));
    cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    const response = await page.goto(path, { waitUntil: 'networkidle' });
    expect(response?.status(), name).toBe(200);
    await expect(page.locator(selector).first(), name).toBeVisible();
    await expect(page.locator('body'), name).toHaveAttribute('data-light', 'true');
    const loaded = [...urls.values()];
    expect(loaded.filter((u) => u.includes('.wasm')), `${name} loads no wasm`).toEqual([]);
    expect(bytes, `${name}: ${bytes} bytes`).toBeLessThan(BUDGET);
    expect(errors, name).toEqual([]);
    // The stylesheet and the script carry their content hash and may be
    // kept for a year.
    const css = loaded.find((u) => u.includes('/pkg/lexpilot.css'))!;
    expect(css, name).toMatch(/\/v\/[0-9a-f]{12}\/pkg\/lexpilot\.css$/);
    const cached = await page.request.get(css);
    expect(cached.headers()['cache-control']).toContain('immutable');
    await context.close();

    const off = await browser.newContext({ javaScriptEnabled: false });
    const still = await off.newPage();
    expect((await still.goto(path))?.status(), `${name} without JavaScript`).toBe(200);
    await expect(still.locator(selector).first(), `${name} without JavaScript`).toBeVisible();
    await off.close();
  }
});

test('a reading page follows stored runs live without wasm', async ({ page, browser }) => {
  await page.goto('/leaderboard');
  await expect(page.locator('body')).toHaveAttribute('data-light', 'true');
  await expect(page.getByTestId('live-badge')).toContainText('Live');
  const before = await page.locator('main table tbody tr').count();
  // A researcher stores a run of a new model through the API.
  const researcher = await browser.newContext();
  const signIn = await researcher.newPage();
  await signIn.goto('/signin');
  await expect(signIn.locator('body')).toHaveAttribute('data-hydrated', 'true', { timeout: 20_000 });
  await signIn.getByLabel('Name', { exact: true }).fill('researcher');
  await signIn.getByLabel('Password', { exact: true }).fill('research-pass-1');
  await signIn.getByRole('button', { name: /^Sign in/ }).click();
  await expect(signIn.getByTestId('current-user')).toContainText('researcher');
  const fs = await import('fs');
  const path = await import('path');
  const run = fs.readFileSync(path.join(__dirname, '../../server/data/runs/sim-frontier-2-run1.jsonl'), 'utf-8')
    .replace('"Sim-Frontier-2 (simulated)"', '"Live-Without-Wasm"');
  expect((await signIn.request.post('/api/runs', { data: run })).status()).toBe(201);
  await expect(page.locator('main')).toContainText('Live-Without-Wasm');
  expect(await page.locator('main table tbody tr').count()).toBeGreaterThan(before);
  await researcher.close();
});

test('a drill-down pages its cases, with and without JavaScript', async ({ page, browser }) => {
  const model = encodeURIComponent('Sim-Frontier-2 (simulated)');
  const cell = `/leaderboard/items?model=${model}&task=lca&class=overall`;
  await page.goto(cell);
  await expect(page.getByTestId('cases-shown').first()).toContainText('Cases 1–25 of 72');
  await expect(page.locator('section.drill-case')).toHaveCount(25);
  // The tallies still count every case: 72 cases × 2 consultations per run.
  const tally = await page.getByTestId('tallies').locator('li').first().innerText();
  const [correct, wrong] = [...tally.matchAll(/[✓✗] (\d+)/g)].map((m) => Number(m[1]));
  expect(correct + wrong).toBeGreaterThan(100);
  const first = await page.locator('section.drill-case').first().getAttribute('id');
  await page.getByTestId('cases-next').first().click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId('cases-shown').first()).toContainText('Cases 26–50 of 72');
  expect(await page.locator('section.drill-case').first().getAttribute('id')).not.toBe(first);

  const off = await browser.newContext({ javaScriptEnabled: false });
  const still = await off.newPage();
  await still.goto(`${cell}&page=3`);
  await expect(still.getByTestId('cases-shown').first()).toContainText('Cases 51–72 of 72');
  await expect(still.locator('section.drill-case')).toHaveCount(22);
  await expect(still.getByTestId('cases-next')).toHaveCount(0);
  await still.getByTestId('cases-prev').first().click();
  await expect(still).toHaveURL(/page=2/);
  await off.close();
});
