import { test, expect, ready } from './helpers';

test('the leaderboard shows the simulated demo entries per task and sorts', async ({ page }) => {
  await page.goto('/leaderboard');
  await ready(page);
  const table = page.getByTestId('leaderboard');
  // Three stored entries, then the paper's published figures (not ranked).
  await expect(table.locator('tr:not(.reference-row) > td.model')).toHaveCount(3);
  await expect(table.getByTestId('reference-row').first()).toContainText('published');
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
    await expect(table.locator('tr:not(.reference-row) > td.model')).toHaveCount(3);
    await expect(table.locator('td.best').first()).toBeVisible();
    await expect(table.locator('tr.reference-row td.best')).toHaveCount(0);
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

test('every column, Overall included, fits 1280 px; a phone reads each entry overall first', async ({ browser }) => {
  for (const task of ['lca', 'dcg', 'ljp']) {
    const wide = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await wide.goto(`/leaderboard?task=${task}`);
    const table = wide.getByTestId('leaderboard');
    const overall = table.locator('th.overall').last();
    await expect(overall).toBeInViewport({ ratio: 1 });
    const box = (await table.boundingBox())!;
    expect(box.x + box.width, `${task}: no horizontal scrolling`).toBeLessThanOrEqual(1280);
    await wide.close();
  }

  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.goto('/leaderboard');
  const entry = phone.getByTestId('leaderboard').locator('tr', { hasText: 'Sim-Frontier-2 (simulated)' });
  const model = (await entry.locator('td.model').boundingBox())!;
  const overall = (await entry.locator('td.overall').boundingBox())!;
  const family = (await entry.locator('td[data-label="Family"]').boundingBox())!;
  expect(model.y + model.height, 'the model on top').toBeLessThanOrEqual(overall.y + 1);
  expect(overall.x, 'overall before the first class').toBeLessThan(family.x);
  expect(overall.x + overall.width, 'nothing off screen').toBeLessThanOrEqual(390);
  await expect(entry.locator('td.overall')).toHaveAttribute('data-label', 'Overall');
  // The header row is the row of sort links.
  await phone.getByTestId('leaderboard').getByRole('link', { name: 'Tort' }).click();
  await expect(phone).toHaveURL(/sort=/);
  await expect(phone.getByTestId('leaderboard').getByRole('columnheader', { name: /Tort/ })).toHaveAttribute('aria-sort', 'descending');
  await phone.close();
});
