import * as fs from 'fs';
import * as path from 'path';
import { test, expect, ready, signIn } from './helpers';

const demoRun = fs.readFileSync(
  path.join(__dirname, '../../server/data/runs/sim-frontier-2-run1.jsonl'), 'utf-8');

/** A model name that closes the title and opens scripts, as a probe stored it. */
const hostile = `</title><script>alert('title')</script><img src=x onerror="alert('img')">`;

test('stored names never run as script, and reading pages run live.js alone under the CSP', async ({ page }) => {
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await signIn(page, 'researcher', 'research-pass-1');
  const run = demoRun.replace('"Sim-Frontier-2 (simulated)"', JSON.stringify(hostile));
  const stored = await page.request.post('/api/runs', { data: run });
  expect(stored.status()).toBe(201);

  const model = encodeURIComponent(hostile);
  for (const url of [`/models/${model}`, `/leaderboard/items?model=${model}&task=lca`, '/leaderboard']) {
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    const headers = response?.headers() ?? {};
    // Reading pages run the site's own live.js and nothing inline.
    expect(headers['content-security-policy']).toMatch(/script-src 'self';/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('same-origin');
    await ready(page);
  }
  // The model page's title shows the name as text.
  await page.goto(`/models/${model}`);
  await ready(page);
  expect(await page.title()).toContain(`</title><script>`);
  // The live badge means live.js opened its event stream under the CSP.
  await page.goto('/leaderboard');
  await ready(page);
  await expect(page.getByTestId('live-badge')).toContainText('Live');

  expect(dialogs).toEqual([]);
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
});

test('the hydrated app works under the CSP: a file is checked in the browser', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await signIn(page, 'researcher', 'research-pass-1');
  const response = await page.goto('/runs/upload');
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'nonce-[^']+' 'strict-dynamic'/);
  await expect(page.locator('body')).toHaveAttribute('data-hydrated', 'true', { timeout: 20_000 });
  await page.getByTestId('run-files').setInputFiles([
    { name: 'ok.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(demoRun.replace('Sim-Frontier-2 (simulated)', 'CSP-Model')) },
  ]);
  await expect(page.getByTestId('upload-report')).toContainText('ok.jsonl');
  await expect(page.getByTestId('store-runs')).toBeEnabled();
  expect(violations).toEqual([]);
});
