import { expect, Page } from '@playwright/test';

/** Waits until the wasm app has hydrated the page (clicks before that are lost). */
export async function hydrated(page: Page) {
  await expect(page.locator('body')).toHaveAttribute('data-hydrated', 'true', { timeout: 20_000 });
}

/** Signs in through the form in a page of its own context. */
export async function signIn(page: Page, name: string, password: string) {
  await page.goto('/signin');
  await hydrated(page);
  await page.getByLabel('Name 用户名').fill(name);
  await page.getByLabel('Password 密码').fill(password);
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await expect(page.getByTestId('current-user')).toContainText(name);
}
