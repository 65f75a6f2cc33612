import { test, expect, Page } from '@playwright/test';
import { hydrated } from './helpers';

/** From the leaderboard to a cell's items and on to one answer, by clicking. */
async function drill(page: Page) {
  const table = page.getByTestId('plaw-leaderboard');
  await expect(table.locator('td.model')).toHaveCount(3);
  const row = table.locator('tr', { hasText: 'Sim-Frontier-3 (simulated)' });
  // The second score column is Task2-Avg.
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
  await hydrated(page);
  await expect(page.getByTestId('benchmarks')).toContainText('PLawBench');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'PLawBench' }).click();
  await expect(page).toHaveURL(/\/plawbench$/);
  await expect(page.getByTestId('plaw-task-stats')).toContainText('案例分析');
  await page.getByRole('navigation', { name: 'PLawBench' }).getByRole('link', { name: /Leaderboard/ }).click();
  await expect(page).toHaveURL(/\/plawbench\/leaderboard$/);
  const table = page.getByTestId('plaw-leaderboard');
  await table.getByRole('link', { name: /^Task1/ }).click();
  await expect(page).toHaveURL(/sort=task1/);
  await expect(table.getByRole('columnheader', { name: /Task1/ })).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('link', { name: /Group by family/ }).click();
  await expect(page).toHaveURL(/\/plawbench\/leaderboard$/);
  await drill(page);
});

test('an item shows its rubric by section and the list filters by task', async ({ page }) => {
  await page.goto('/plawbench/items');
  await hydrated(page);
  await page.getByLabel('Task 任务').selectOption('legal_consultation');
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
