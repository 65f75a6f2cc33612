import { test, expect, download, csvLines } from './helpers';

// The agreement dashboard's exports are tried at the end of review.spec.ts,
// on the items its tests leave: review items made here would sit in the
// experts' queues ahead of theirs.

test.describe('reading pages, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the LexPilot drill-down exports its items of every page, its runs and its confusion matrix', async ({ page }) => {
    await page.goto('/leaderboard/items?model=Sim-Frontier-2%20(simulated)&task=lca');
    await expect(page.getByTestId('cases-shown').first()).toContainText('Cases 1–25 of 72');
    const items = await download(page, 'export-items', 'csv');
    expect(items.name).toBe('lexpilot-demo-synthetic-Sim-Frontier-2 (simulated)-lca-overall-items.csv');
    const lines = csvLines(items.text);
    expect(lines[0]).toBe('Case,Cause,Class,Consultation (gold),Wants,Run,Label,Outcome,Why unavailable,Response');
    // Every case, not the page's 25: 72 cases × 2 consultations × 3 runs (replies may span lines).
    expect(new Set(lines.filter((l) => /^DEMO-\d{4},/.test(l)).map((l) => l.split(',')[0])).size).toBe(72);
    await expect(page.getByTestId('export-items').locator('a[data-format="latex"]')).toHaveCount(0);
    const runs = await download(page, 'export-runs', 'json');
    expect(JSON.parse(runs.text).rows).toHaveLength(3);

    await page.goto('/leaderboard/items?model=Sim-Frontier-2%20(simulated)&task=ljp&setup=gold&class=family');
    const matrix = await download(page, 'export-confusion', 'latex');
    expect(matrix.name.endsWith('-ljp-gold-family-confusion.tex')).toBe(true);
    expect(matrix.text).toContain('\\begin{tabular}');
  });

  test('the PLawBench and DLawBench drill-downs export every row', async ({ page }) => {
    await page.goto('/plawbench/leaderboard/items?model=Sim-Frontier-3%20(simulated)&column=task2');
    const items = await download(page, 'export-items', 'csv');
    expect(csvLines(items.text)[0]).toMatch(/^Item,Task,Category,Points,Run,Value \(×100\),Status/);
    const runs = await download(page, 'export-runs', 'latex');
    expect(runs.text).toContain('Value (×100)');

    await page.goto('/dlawbench/leaderboard/sessions?model=Sim-Frontier-5%20(simulated)&metric=inquiry&style=withdrawn');
    const sessions = await download(page, 'export-sessions', 'csv');
    const lines = csvLines(sessions.text);
    expect(lines[0]).toMatch(/^Run,Case,Jurisdiction,Style,/);
    expect(lines.slice(1).every((l) => l.includes(',Withdrawn,'))).toBe(true);
    expect(lines.length - 1).toBe(await page.getByTestId('dlaw-cell-sessions').locator('tbody tr').count());
  });

  test('compare, the model page and the paper export their tables', async ({ page }) => {
    await page.goto('/compare?a=Sim-Frontier-2%20(simulated)&b=Sim-OpenChat-72B%20(simulated)');
    const compare = await download(page, 'export-compare', 'csv');
    const rows = csvLines(compare.text);
    expect(rows[0]).toBe('Score,A,B,A − B,95% CI low,95% CI high,p');
    expect(rows.length - 1).toBe(await page.getByTestId('compare').locator('tbody tr').count());

    await page.goto('/models/Sim-Frontier-2%20(simulated)');
    const runs = await download(page, 'export-runs', 'csv');
    expect(csvLines(runs.text).length - 1).toBe(await page.getByTestId('model-runs').locator('tbody tr').count());
    const ljp = await download(page, 'export-ljp', 'latex');
    expect(ljp.text).toContain('$\\pm$');

    await page.goto('/paper');
    const links = page.locator('p.exports a');
    expect(await links.count()).toBeGreaterThan(20);
    const [file] = await Promise.all([page.waitForEvent('download'), links.first().click()]);
    expect(file.suggestedFilename()).toMatch(/^paper-.*\.csv$/);
  });

  test('Chinese pages export Chinese headers', async ({ page }) => {
    await page.goto('/leaderboard/items?model=Sim-Frontier-2%20(simulated)&task=dcg&lang=zh');
    const items = await download(page, 'export-items', 'csv');
    expect(csvLines(items.text)[0]).toMatch(/^案例,案由,类别,缺失事实（真实）,运行,请求数,采纳数,结果/);
  });
});
