import { test, expect } from '@playwright/test';
import { ready } from './helpers';

test('the leaderboard shows the simulated demo entries per task and sorts', async ({ page }) => {
  await page.goto('/leaderboard');
  await ready(page);
  const table = page.getByTestId('leaderboard');
  await expect(table.locator('td.model')).toHaveCount(3);
  await expect(table).toContainText('Sim-Frontier-2 (simulated)');
  await expect(page.getByText(/Synthetic demo data/)).toBeVisible();

  await page.getByRole('link', { name: /^LJP/ }).click();
  await expect(page).toHaveURL(/task=ljp/);
  await expect(table.getByRole('columnheader', { name: /Gain/ })).toBeVisible();

  await table.getByRole('link', { name: /Overall Gold/ }).click();
  await expect(page).toHaveURL(/sort=overall_gold/);
  await expect(table.getByRole('columnheader', { name: /Overall Gold/ })).toHaveAttribute('aria-sort', 'descending');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the leaderboard renders and its tabs are links', async ({ page }) => {
    await page.goto('/leaderboard?task=dcg');
    const table = page.getByTestId('leaderboard');
    await expect(table.locator('td.model')).toHaveCount(3);
    await expect(table.locator('td.best').first()).toBeVisible();
  });
});

test('drill from a leaderboard cell to the items behind it, then to a case', async ({ page }) => {
  await page.goto('/leaderboard?task=ljp&setup=gold');
  await ready(page);
  const row = page.getByTestId('leaderboard').locator('tr', { hasText: 'Sim-Frontier-2 (simulated)' });
  await row.locator('a.cell-link').first().click();
  await expect(page).toHaveURL(/\/leaderboard\/items\?.*task=ljp.*class=family/);
  await expect(page.getByRole('heading', { name: /Confusion matrix/ })).toBeVisible();
  await page.locator('a.case-link').first().click();
  await expect(page).toHaveURL(/\/cases\/DEMO-0001$/);
  await expect(page.getByTestId('case-id')).toHaveText('DEMO-0001');
});
