import * as fs from 'fs';
import * as path from 'path';
import { test, expect, ready } from './helpers';

const demoRun = fs.readFileSync(
  path.join(__dirname, '../../server/data/runs/sim-frontier-2-run1.jsonl'), 'utf-8');

async function signIn(page, name: string, password: string) {
  await page.goto('/signin');
  await ready(page);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await expect(page.getByTestId('current-user')).toContainText(name);
}

test('a researcher uploads runs in the browser after a validation report', async ({ page, browser }) => {
  // Someone else has the leaderboard open in another browser; it must update without reload.
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto('/leaderboard');
  await ready(watcher);
  await expect(watcher.getByTestId('live-badge')).toContainText('Live');
  await watcher.evaluate(() => { (window as any).__notReloaded = true; });
  await expect(watcher.getByTestId('leaderboard')).not.toContainText('E2E-Model');

  await signIn(page, 'researcher', 'research-pass-1');
  await page.getByRole('link', { name: /Upload/ }).click();
  await ready(page);

  const good = demoRun.replace('Sim-Frontier-2 (simulated)', 'E2E-Model');
  const bad = good.replace('"run": 1,', '"run": 2,').replace('"label": "ask"', '"label": "maybe"');
  await page.getByTestId('run-files').setInputFiles([
    { name: 'bad.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(bad) },
  ]);
  const report = page.getByTestId('upload-report');
  await expect(report).toContainText('bad.jsonl');
  await expect(report).toContainText(/line \d+ .*label.*maybe/);
  await expect(page.getByTestId('store-runs')).toBeDisabled();

  await page.getByTestId('run-files').setInputFiles([
    { name: 'good.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(good) },
  ]);
  await expect(report).toContainText('E2E-Model · run 1');
  await expect(page.getByTestId('store-runs')).toBeEnabled();
  await page.getByTestId('store-runs').click();
  await expect(page.getByTestId('stored')).toContainText('Stored 1 run');

  await expect(watcher.getByTestId('leaderboard')).toContainText('E2E-Model');
  expect(await watcher.evaluate(() => (window as any).__notReloaded)).toBe(true);

  await page.goto('/leaderboard');
  await expect(page.getByTestId('leaderboard')).toContainText('E2E-Model');
});

test('the upload page sends visitors to sign in and refuses roles that may not upload', async ({ page }) => {
  await page.goto('/runs/upload');
  await expect(page).toHaveURL(/\/signin\?next=%2Fruns%2Fupload$/);
  await expect(page.getByTestId('run-files')).toHaveCount(0);
  await ready(page);
  await page.getByLabel('Name', { exact: true }).fill('王律师');
  await page.getByLabel('Password', { exact: true }).fill('expert-pass-1');
  await page.getByRole('button', { name: /^Sign in/ }).click();
  // Signed in, the visitor comes back to the page, which their role may not use.
  await expect(page.getByTestId('access-refused')).toBeVisible();
  await expect(page.getByTestId('run-files')).toHaveCount(0);
});

const demoDataset = fs.readFileSync(
  path.join(__dirname, '../../server/data/demo-synthetic.jsonl'), 'utf-8');

test('the upload page renames the model, names a dataset file and says identical errors once', async ({ page }) => {
  await signIn(page, 'researcher', 'research-pass-1');
  await page.goto('/runs/upload');
  await ready(page);
  const report = page.getByTestId('upload-report');

  // A dataset file picked as a run: one message saying what it is.
  await page.getByTestId('run-files').setInputFiles([
    { name: 'cases.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(demoDataset) },
  ]);
  await expect(report).toContainText('1 error');
  await expect(page.getByTestId('upload-errors').locator('li')).toHaveCount(1);
  await expect(report).toContainText('this is a LexPilot dataset file, not a run file');

  // Every LCA item of an unknown kind: one line for the hundred.
  const broken = demoRun.replaceAll('"kind": "lca"', '"kind": "lcx"');
  await page.getByTestId('run-files').setInputFiles([
    { name: 'broken.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(broken) },
  ]);
  await expect(page.getByTestId('upload-errors').locator('li').first())
    .toHaveText(/^lines 2–101, field kind: unknown kind "lcx"/);
  await expect(page.getByTestId('upload-errors').locator('li')).toHaveCount(2);

  // The demo run under another name and family, without editing the file.
  await page.getByTestId('upload-model').fill('通义千问 页面上传');
  // Leaving the field checks the picked files again under the new name.
  await page.getByTestId('upload-model').press('Tab');
  await page.getByTestId('upload-family').selectOption('open');
  await page.getByTestId('run-files').setInputFiles([
    { name: 'run.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(demoRun) },
  ]);
  await expect(report).toContainText('通义千问 页面上传 · run 1');
  await expect(page.getByTestId('store-runs')).toBeEnabled();
  await page.getByTestId('store-runs').click();
  await expect(page.getByTestId('stored')).toContainText('Stored 1 run', { timeout: 30_000 });
  await page.goto('/leaderboard');
  await expect(page.getByTestId('leaderboard')).toContainText('通义千问 页面上传');
});
