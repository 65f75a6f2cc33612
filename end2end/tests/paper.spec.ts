import { test, expect } from '@playwright/test';
import { hydrated } from './helpers';

// The paper's other results: every view renders from the server, so the page
// reads the same without JavaScript; the leaderboard links to it.
test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the paper page shows every table and figure', async ({ page }) => {
    await page.goto('/paper');
    const table3 = page.getByTestId('paper-table_3');
    await expect(table3.locator('tbody tr')).toHaveCount(4);
    await expect(table3.locator('tr.summary-row')).toContainText('Mean over 3 models');
    await expect(table3.locator('tr.summary-row')).toContainText('%');
    for (const name of ['table_16', 'table_17']) {
      const t = page.getByTestId(`paper-${name}`);
      await expect(t.locator('thead th')).toHaveCount(9);
      await expect(t.locator('tbody tr')).toHaveCount(3);
    }
    await expect(page.getByTestId('table-15-empty')).toBeVisible();
    for (const figure of ['figure-3-lca', 'figure-3-dcg', 'figure-4a', 'figure-4b', 'figure-4c']) {
      await expect(page.getByTestId(figure).locator('svg')).toHaveCount(1);
    }
    await expect(page.getByTestId('paper-figure_3_association').locator('tbody tr')).toHaveCount(3);
    await expect(page.getByTestId('paper-figure_4c').locator('tbody tr')).toHaveCount(6);
    const csv = await page.request.get('/api/leaderboard/export?paper=table_16&format=csv');
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('family_mean');
  });
});

test('the leaderboard leads to the paper page', async ({ page }) => {
  await page.goto('/leaderboard?task=ljp');
  await hydrated(page);
  await page.getByTestId('paper-link').click();
  await expect(page).toHaveURL(/\/paper$/);
  await expect(page.getByTestId('paper-table_3')).toBeVisible();
});
