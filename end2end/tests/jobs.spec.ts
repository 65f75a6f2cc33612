import { Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

/** The scripted endpoint playwright.config.ts starts beside the server. */
const stubUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1}/v1`;

/** Adds an endpoint through the page's "Add an endpoint" form. */
async function addEndpoint(page: Page, name: string, model: string, vendor: string) {
  const form = page.locator('form.endpoint-form.filters');
  await form.locator('input[name="name"]').fill(name);
  await form.locator('input[name="base_url"]').fill(stubUrl);
  await form.locator('input[name="model"]').fill(model);
  await form.locator('input[name="vendor"]').fill(vendor);
  await form.getByRole('button', { name: /^Add/ }).click();
  await expect(page.getByTestId('endpoints-table')).toContainText(model);
}

test('an admin runs DLawBench in four styles from the browser, watches the job and sees the style gap', async ({ page }) => {
  await signIn(page, 'admin', 'admin-pass-1');
  await page.goto('/admin/runs');
  await ready(page);
  await addEndpoint(page, 'e2e-lawyer', 'E2E-Lawyer', 'acme');
  await addEndpoint(page, 'e2e-client', 'E2E-Client', '');
  await addEndpoint(page, 'e2e-judge', 'E2E-Judge', 'judgeco');

  const form = page.locator('form.start-form');
  await form.getByTestId('job-benchmark').selectOption('dlawbench');
  // Once DLawBench is chosen, LexPilot's and PLawBench's fields hide.
  await expect(page.getByTestId('dlawbench-settings')).toBeVisible();
  await expect(page.getByTestId('plawbench-settings')).toBeHidden();
  await form.locator('select[name="model"]').selectOption({ label: 'e2e-lawyer · E2E-Lawyer' });
  await form.locator('select[name="user"]').selectOption({ label: 'e2e-client · E2E-Client' });
  await form.getByRole('checkbox', { name: 'e2e-judge · E2E-Judge' }).check();
  for (const style of ['Cooperative', 'Dependent', 'Withdrawn', 'Adversarial']) {
    await expect(form.getByRole('checkbox', { name: new RegExp(`^${style}\\b`) })).toBeChecked();
  }
  await form.locator('input[name="runs"]').fill('2');
  await form.getByTestId('start-job').click();
  await expect(page.getByRole('status').filter({ hasText: 'started' })).toBeVisible();

  // The jobs table follows the job live, without a reload, until it is done.
  const row = page.locator('tr[data-testid="job-row"][data-benchmark="dlawbench"]', { hasText: 'E2E-Lawyer' });
  // The start's answer puts the job in the list at once (the list does not
  // wait for a refetch, which each progress event would restart).
  await expect(row).toContainText('cooperative, dependent, withdrawn, adversarial');
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 60_000 });
  await expect(row).toContainText('96/96');
  await expect(row).toContainText('2 runs stored');

  await row.getByRole('link', { name: /Style sensitivity/ }).click();
  await expect(page).toHaveURL(/\/dlawbench\/leaderboard#styles$/);
  const elicitation = page.getByTestId('dlaw-styles').locator('table[data-ability="elicitation"]');
  const entry = elicitation.locator('tbody tr', { hasText: 'E2E-Lawyer' });
  await expect(entry).toBeVisible();
  // The scripted judge takes Inquiry points as the client grows harder:
  // every Δ against cooperative is negative, adversarial's the largest.
  const deltas = await entry.locator('td.delta').allTextContents();
  expect(deltas).toHaveLength(3);
  const values = deltas.map(Number);
  expect(values.every((d) => d < 0)).toBeTruthy();
  expect(values[2]).toBeLessThan(values[0]);
  // On the main table too, with its two runs.
  await expect(page.getByTestId('dlaw-leaderboard').locator('tr', { hasText: 'E2E-Lawyer' })).toBeVisible();
});

test('the start form shows the chosen benchmark, estimates the calls and cost, and tests an endpoint', async ({ page }) => {
  await signIn(page, 'admin', 'admin-pass-1');
  await page.goto('/admin/runs');
  await ready(page);
  await addEndpoint(page, 'est-model', 'Est-Model', 'acme');
  await addEndpoint(page, 'est-judge', 'Est-Judge', 'judgeco');

  // Before anything is chosen: LexPilot's settings only.
  const form = page.locator('form.start-form');
  await expect(form.getByTestId('job-benchmark')).toHaveValue('lexpilot');
  await expect(page.getByTestId('plawbench-settings')).toBeHidden();
  await expect(page.getByTestId('dlawbench-settings')).toBeHidden();

  // PLawBench on its first 5 items, twice, one judge asked once: exactly
  // 10 model and 10 judge calls.
  await form.getByTestId('job-benchmark').selectOption('plawbench');
  await expect(page.getByTestId('plawbench-settings')).toBeVisible();
  await form.locator('select[name="model"]').selectOption({ label: 'est-model · Est-Model' });
  await form.getByRole('checkbox', { name: 'est-judge · Est-Judge' }).check();
  await form.locator('input[name="judge_attempts"]').fill('1');
  await form.locator('input[name="limit"]').fill('5');
  await form.locator('input[name="runs"]').fill('2');
  await form.locator('input[name="runs"]').blur();
  const estimate = page.getByTestId('job-estimate');
  await expect(estimate.getByTestId('estimate-calls')).toHaveText('20 calls');
  await expect(estimate).toContainText('model 10 · user / client 0 · judges 10');

  // With prices, the cost: 20 × (2,000 × 1 + 500 × 4) / 10⁶ = 0.08.
  await page.getByText(/^Cost estimate/).click();
  await form.getByTestId('input-price').fill('1');
  await form.getByTestId('output-price').fill('4');
  await form.getByTestId('output-price').blur();
  await expect(estimate.getByTestId('estimate-cost')).toContainText('cost about 0.08');

  // DLawBench's dialogues make a range.
  await form.getByTestId('job-benchmark').selectOption('dlawbench');
  await expect(page.getByTestId('plawbench-settings')).toBeHidden();
  await form.locator('select[name="user"]').selectOption({ label: 'est-judge · Est-Judge' });
  await expect(estimate.getByTestId('estimate-calls')).toContainText(/\d+–[\d,]+ calls/);

  // One real call to an endpoint: the stub answers it.
  await page.getByRole('row', { name: /est-model/ }).getByTestId('test-endpoint').click();
  await expect(page.getByTestId('endpoint-test')).toContainText(/est-model · Est-Model answered in [\d.]+ s: .*ready/);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the start form shows one benchmark at a time, switched by links', async ({ page }) => {
    await page.goto('/signin');
    await page.getByLabel('Name', { exact: true }).fill('admin');
    await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
    await page.getByRole('button', { name: /^Sign in/ }).click();
    await page.goto('/admin/runs');
    // The forms post to their server functions, which send the browser back.
    const add = page.locator('form.endpoint-form.filters');
    await add.locator('input[name="name"]').fill('nojs-model');
    await add.locator('input[name="base_url"]').fill(stubUrl);
    await add.locator('input[name="model"]').fill('NoJS-Model');
    await add.getByRole('button', { name: /^Add/ }).click();
    await expect(page.getByTestId('endpoints-table')).toContainText('NoJS-Model');
    await expect(page.getByTestId('plawbench-settings')).toBeHidden();
    await page.locator('a[href="/admin/runs?benchmark=plawbench"]').click();
    await expect(page).toHaveURL(/benchmark=plawbench/);
    await expect(page.getByTestId('plawbench-settings')).toBeVisible();
    await expect(page.getByTestId('dlawbench-settings')).toBeHidden();
    await expect(page.locator('form.start-form').getByTestId('job-benchmark')).toHaveValue('plawbench');
  });
});
