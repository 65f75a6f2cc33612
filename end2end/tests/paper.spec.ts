import { test, expect, ready } from './helpers';

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

  test('Table 4 puts Direct, Targeted and Off-target side by side', async ({ page }) => {
    // serve.sh stores one Targeted vs Off-target run of Sim-Frontier-2 against
    // the scripted endpoint, whose validation judge rejects some off-target
    // dialogues five times over.
    await page.goto('/paper#table-4');
    await expect(page.getByTestId('table-4-empty')).toHaveCount(0);
    const table4 = page.getByTestId('paper-table_4');
    const heads = await table4.locator('thead th').allInnerTexts();
    expect(heads.slice(0, 5)).toEqual(['Category', 'Model', 'Direct', 'Targeted', 'Off-target']);
    const row = table4.locator('tbody tr', { hasText: 'Sim-Frontier-2 (simulated)' });
    await expect(row).toHaveCount(1);
    const cells = await row.locator('td').allInnerTexts();
    // Direct is the mean ± std of the model's stored Direct runs; the
    // experiment's columns are QWK values in [-1, 1].
    expect(cells[2]).toMatch(/^0\.\d{4} ± 0\.\d{4}$/);
    for (const qwk of cells.slice(3, 5)) {
      expect(Number(qwk)).toBeGreaterThanOrEqual(-1);
      expect(Number(qwk)).toBeLessThanOrEqual(1);
    }
    expect(Number(cells[3])).toBeGreaterThan(Number(cells[4]));
    const unresolved = page.getByTestId('table-4-unresolved');
    await expect(unresolved.locator('summary')).toContainText(/Unresolved cases \(\d+\)/);
    await expect(unresolved.locator('li a').first()).toHaveAttribute('href', /^\/cases\//);
    const latex = await page.request.get('/api/leaderboard/export?paper=table_4&format=latex');
    expect(latex.status()).toBe(200);
    expect(await latex.text()).toContain('Off-target');
  });
});

test('the leaderboard leads to the paper page', async ({ page }) => {
  await page.goto('/leaderboard?task=ljp');
  await ready(page);
  await page.getByTestId('paper-link').click();
  await expect(page).toHaveURL(/\/paper$/);
  await expect(page.getByTestId('paper-table_3')).toBeVisible();
});
