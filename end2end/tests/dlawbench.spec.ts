import { Page } from '@playwright/test';
import { test, expect, ready } from './helpers';

/** From the style-sensitivity view to a cell's sessions and on to one session, by clicking. */
async function drill(page: Page) {
  const styles = page.getByTestId('dlaw-styles');
  const resolution = styles.locator('table[data-ability="resolution"]');
  const row = resolution.locator('tr', { hasText: 'Sim-Frontier-5 (simulated)' });
  // Cooperative, then per other style its value and Δ: the last link is adversarial's value.
  await row.locator('a.cell-link').last().click();
  await expect(page).toHaveURL(/\/dlawbench\/leaderboard\/sessions\?.*metric=resolution.*style=adversarial/);
  const sessions = page.getByTestId('dlaw-cell-sessions').first();
  await expect(sessions).toContainText('DL-SYN-CN-01');
  await expect(sessions).toContainText('Adversarial');
  await expect(sessions).not.toContainText('Cooperative');
  await sessions.locator('tr', { hasText: 'DL-SYN-CN-01' }).locator('a.case-link').click();
  await expect(page).toHaveURL(/\/dlawbench\/leaderboard\/session\?.*run=1/);
  await expect(page.getByTestId('dlaw-dialogue')).toContainText('Turn 1');
  await expect(page.getByTestId('dlaw-judges').getByTestId('dlaw-judge')).toHaveCount(3);
  await expect(page.getByTestId('dlaw-judges')).toContainText('recused');
  await expect(page.getByTestId('dlaw-panel-values')).toContainText('Resolution');
}

test('the style-sensitivity view shows four styles per ability with Δ and a chart each', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  await expect(page.getByTestId('benchmarks')).toContainText('DLawBench');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'DLawBench' }).click();
  await expect(page).toHaveURL(/\/dlawbench$/);
  await expect(page.getByTestId('dlaw-stats')).toContainText('Chinese law');
  await page.getByRole('navigation', { name: 'DLawBench' }).getByRole('link', { name: /Leaderboard/ }).click();
  await expect(page).toHaveURL(/\/dlawbench\/leaderboard$/);
  const styles = page.getByTestId('dlaw-styles');
  for (const ability of ['elicitation', 'resolution', 'fidelity']) {
    const table = styles.locator(`table[data-ability="${ability}"]`);
    // The three demo entries (and any a job spec added before this one).
    await expect(table.locator('tbody tr', { hasText: '(simulated)' })).toHaveCount(3);
    for (const style of ['Cooperative', 'Dependent', 'Withdrawn', 'Adversarial']) {
      await expect(table.locator('thead')).toContainText(style);
    }
    await expect(table.locator('td.delta').first()).toHaveText(/^[+-]\d\.\d{3}$/);
    await expect(page.locator(`figure[data-testid="dlaw-style-chart"][data-ability="${ability}"] svg`)).toBeVisible();
  }
  // The valid-only view is a link; the table follows it.
  await page.getByTestId('view-valid_only').click();
  await expect(page).toHaveURL(/scores=valid_only/);
  await expect(page.getByTestId('view-valid_only')).toHaveAttribute('aria-current', 'page');
  await page.getByTestId('view-null_as_zero').click();
  await expect(page).toHaveURL(/\/dlawbench\/leaderboard$/);
  await drill(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a case shows its fact pairs side by side, disputed ones highlighted', async ({ page }) => {
    await page.goto('/dlawbench/cases?jurisdiction=cn');
    await expect(page.getByTestId('result-count')).toContainText('6');
    await page.getByRole('link', { name: 'DL-SYN-CN-01' }).click();
    await expect(page).toHaveURL(/\/dlawbench\/cases\/DL-SYN-CN-01$/);
    const pairs = page.getByTestId('fact-pairs');
    const disputed = pairs.locator('.fact-pair.disputed');
    await expect(disputed.first()).toBeVisible();
    await expect(disputed.first().locator('.belief')).toContainText('继母');
    await expect(disputed.first().locator('.record')).toContainText('共同财产');
    // Belief and record sit side by side at desktop width.
    const belief = await disputed.first().locator('.belief').boundingBox();
    const record = await disputed.first().locator('.record').boundingBox();
    expect(belief && record && record.x > belief.x + belief.width - 1).toBeTruthy();
    expect(Math.abs((belief?.y ?? 0) - (record?.y ?? 1))).toBeLessThan(2);
    await expect(pairs.locator('.fact-pair:not(.disputed)').first()).toBeVisible();
    await expect(page.getByTestId('inquiry-rubrics').locator('li').first()).toBeVisible();
    await expect(page.getByTestId('issue-rubrics').locator('li').first()).toBeVisible();
  });

  test('the leaderboard drills from a style cell to one session by plain links', async ({ page }) => {
    await page.goto('/dlawbench/leaderboard');
    await expect(page.getByTestId('dlaw-leaderboard').locator('td.best').first()).toBeVisible();
    await drill(page);
  });
});
