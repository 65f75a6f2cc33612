import { expect, Page } from '@playwright/test';

/**
 * Waits until the page takes input: the wasm app has hydrated it (clicks
 * before that are lost), or, on a reading page, which has no wasm, its live
 * script has run.
 */
export async function ready(page: Page) {
  await expect(page.locator('body[data-hydrated="true"], body[data-light="true"]')).toHaveCount(1, { timeout: 20_000 });
}

/** Signs in through the form in a page of its own context. */
export async function signIn(page: Page, name: string, password: string) {
  await page.goto('/signin');
  await ready(page);
  // In either language: the page follows the browser's (or the switch's).
  await page.getByLabel(/^(Name|用户名)$/).fill(name);
  await page.getByLabel(/^(Password|密码)$/).fill(password);
  await page.getByRole('button', { name: /^(Sign in|登录)$/ }).click();
  await expect(page.getByTestId('current-user')).toContainText(name);
}
