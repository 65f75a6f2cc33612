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
