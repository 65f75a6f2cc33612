import { Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

/** From the leaderboard to a cell's items and on to one answer, by clicking. */
async function drill(page: Page) {
  const table = page.getByTestId('plaw-leaderboard');
  // Three stored entries, then the release's published ranking (not ranked).
  await expect(table.locator('tr:not(.reference-row) > td.model')).toHaveCount(3);
  await expect(table.getByTestId('reference-row')).toHaveCount(24);
  const row = table.locator('tr', { hasText: 'Sim-Frontier-3 (simulated)' });
  // The second score column is Task 2's average.
  await row.locator('a.cell-link').nth(1).click();
  await expect(page).toHaveURL(/\/plawbench\/leaderboard\/items\?.*column=task2/);
  const items = page.getByTestId('plaw-cell-items');
  await expect(items).toContainText('case_analysis-12');
  await expect(items).not.toContainText('legal_consultation-1');
  await items.locator('tr', { hasText: 'case_analysis-1 ' }).first().locator('a.cell-link').first().click();
  await expect(page).toHaveURL(/\/plawbench\/leaderboard\/item\?.*item=case_analysis-1/);
  await expect(page.getByTestId('item-awards')).toContainText('Conclusion');
  await expect(page.getByTestId('response')).toBeVisible();
}

test('the PLawBench leaderboard is chosen from the header, sorts, and drills to one answer', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await expect(page.getByTestId('benchmarks')).toContainText('PLawBench');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PLawBench' }).click();
  await expect(page).toHaveURL(/\/plawbench$/);
  await expect(page.getByTestId('plaw-task-stats')).toContainText('Case analysis');
  await page.getByRole('navigation', { name: 'PLawBench' }).getByRole('link', { name: /Leaderboard/ }).click();
  await expect(page).toHaveURL(/\/plawbench\/leaderboard$/);
  const table = page.getByTestId('plaw-leaderboard');
  await table.getByRole('link', { name: /^Task 1/ }).click();
  await expect(page).toHaveURL(/sort=task1/);
  await expect(table.getByRole('columnheader', { name: /Task 1/ })).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('link', { name: /Group by family/ }).click();
  await expect(page).toHaveURL(/\/plawbench\/leaderboard$/);
  await drill(page);
});

test('an item shows its rubric by section and the list filters by task', async ({ page }) => {
  await page.goto('/plawbench/items');
  await ready(page);
  await page.getByRole('combobox', { name: 'Task', exact: true }).selectOption('legal_consultation');
  await page.getByRole('button', { name: /Apply/ }).click();
  await expect(page).toHaveURL(/task=legal_consultation/);
  await expect(page.getByTestId('result-count')).toContainText('6');
  await page.getByRole('link', { name: 'legal_consultation-1' }).click();
  await expect(page.getByTestId('rubric')).toBeVisible();
  await expect(page.getByTestId('item-id')).toHaveText('legal_consultation-1');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the PLawBench leaderboard renders and drills to one answer by plain links', async ({ page }) => {
    await page.goto('/plawbench/leaderboard');
    await expect(page.getByTestId('plaw-leaderboard').locator('td.best').first()).toBeVisible();
    await expect(page.getByTestId('plaw-categories')).toContainText('婚姻家事');
    await drill(page);
  });
});

test('a researcher stores a PLawBench run and imports an evalscope archive; the leaderboard updates live', async ({ page, browser }) => {
  const fs = await import('fs');
  const path = await import('path');
  const run = fs
    .readFileSync(path.join(__dirname, '../../server/data/plawbench/runs/sim-openlaw-70b-run1.jsonl'), 'utf-8')
    .replace('Sim-OpenLaw-70B (simulated)', 'E2E-Plaw-Model');
  const watcher = await (await browser.newContext()).newPage();
  await watcher.goto('/plawbench/leaderboard');
  await ready(watcher);
  await expect(watcher.getByTestId('live-badge')).toContainText('Live');
  await expect(watcher.getByTestId('plaw-leaderboard')).not.toContainText('E2E-Plaw-Model');

  await signIn(page, 'researcher', 'research-pass-1');
  await page.goto('/runs/upload');
  await ready(page);
  await page.getByTestId('upload-benchmark').selectOption('plawbench');
  await page.getByTestId('run-files').setInputFiles([
    { name: 'broken.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(run.replace('"item_id": "case_analysis-3"', '"item_id": "case_analysis-99"')) },
  ]);
  const report = page.getByTestId('upload-report');
  await expect(report).toContainText(/line 4 .*item_id/);
  await expect(page.getByTestId('store-runs')).toBeDisabled();
  await page.getByTestId('run-files').setInputFiles([
    { name: 'good.jsonl', mimeType: 'application/jsonl', buffer: Buffer.from(run) },
  ]);
  await expect(report).toContainText('E2E-Plaw-Model · run 1');
  await page.getByTestId('store-runs').click();
  await expect(page.getByTestId('stored')).toContainText('Stored 1 run');
  await expect(watcher.getByTestId('plaw-leaderboard')).toContainText('E2E-Plaw-Model');

  await page.getByTestId('evalscope-archive').setInputFiles(path.join(__dirname, '../fixtures/evalscope-demo.zip'));
  await expect(page.getByTestId('evalscope-preview')).toContainText('reconciled with the report');
  await expect(page.getByTestId('reconciliation').first()).toContainText('case_analysis');
  await page.getByTestId('import-evalscope').click();
  await expect(page.getByTestId('imported')).toContainText('Imported 1 run');
  await expect(watcher.getByTestId('plaw-leaderboard')).toContainText('sim-evalscope-8b');
});
