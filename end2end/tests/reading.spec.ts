import { Page } from '@playwright/test';
import { test, expect, ready } from './helpers';

/** The reading journey: overview → filtered list → case with both consultations. */
async function readingJourney(page: Page, js: boolean) {
  await page.goto('/');
  if (js) await ready(page);
  await expect(page.getByRole('heading', { name: /Dataset overview/ })).toBeVisible();
  const stats = page.getByTestId('stats-table');
  await expect(stats).toContainText('144'); // 72 cases × 2 consultations
  await expect(stats).toContainText('36');
  await expect(page.getByText(/Synthetic demo data/)).toBeVisible();
  await expect(page.getByTestId('class-table').locator('tbody tr')).toHaveCount(6);

  await page.getByRole('link', { name: /^Cases/ }).click();
  await expect(page).toHaveURL(/\/cases$/);
  await expect(page.getByTestId('result-count')).toContainText('72');

  await page.getByRole('combobox', { name: 'Class', exact: true }).selectOption('family');
  await page.getByRole('combobox', { name: 'Seed', exact: true }).selectOption('true');
  await page.getByRole('button', { name: /Apply/ }).click();
  await expect(page).toHaveURL(/class=family/);
  await expect(page).toHaveURL(/seed=true/);
  await expect(page.getByTestId('result-count')).toContainText('5 of 72');
  await expect(page.getByTestId('case-table').locator('tbody tr')).toHaveCount(5);

  // The URL is shareable: loading it afresh gives the same list.
  await page.goto(page.url());
  await expect(page.getByTestId('result-count')).toContainText('5 of 72');

  await page.getByTestId('case-table').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/cases\/DEMO-0001$/);
  await expect(page.getByTestId('case-id')).toHaveText('DEMO-0001');
  const dialogue = page.getByTestId('dialogue');
  await expect(dialogue.getByText('Complete consultation')).toBeVisible();
  await expect(dialogue.getByText('Underspecified consultation')).toBeVisible();
  const marks = dialogue.locator('mark.missing-fact');
  await expect(marks.first()).toBeVisible();
  // Marks sit only in the complete consultation.
  await expect(dialogue.locator('.c-underspecified mark')).toHaveCount(0);
  await expect(page.getByTestId('missing-badge').first()).toBeVisible();

  await page.getByRole('link', { name: /^Next/ }).first().click();
  await expect(page.getByTestId('case-id')).toHaveText('DEMO-0002');
}

test('reading journey with JavaScript', async ({ page }) => {
  await readingJourney(page, true);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('reading journey', async ({ page }) => {
    await readingJourney(page, false);
  });

  test('sign in and out by plain form posts', async ({ page }) => {
    await page.goto('/signin');
    await page.getByLabel('Name', { exact: true }).fill('王律师');
    await page.getByLabel('Password', { exact: true }).fill('expert-pass-1');
    await page.getByRole('button', { name: /^Sign in/ }).click();
    await expect(page.getByTestId('current-user')).toContainText('王律师');
    await page.getByRole('button', { name: /Sign out/ }).click();
    await expect(page.getByRole('link', { name: /Sign in/ })).toBeVisible();
  });
});

test('an unknown case is a 404 page', async ({ page }) => {
  const res = await page.goto('/cases/NOPE-404');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('alert')).toContainText('no case NOPE-404');
});

test('search finds dialogue text', async ({ page }) => {
  await page.goto('/cases?q=' + encodeURIComponent('DEMO-0007'));
  await expect(page.getByTestId('result-count')).toContainText('1 of 72');
});
