import { expect, Page } from '@playwright/test';

/** Waits until the wasm app has hydrated the page (clicks before that are lost). */
export async function hydrated(page: Page) {
  await expect(page.locator('body')).toHaveAttribute('data-hydrated', 'true', { timeout: 20_000 });
}
