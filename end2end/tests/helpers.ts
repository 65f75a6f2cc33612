import { test as base, expect, BrowserContext, Download, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

export { expect };

/**
 * Playwright's `test`, failing any test during which a page of it threw an
 * uncaught error or the wasm app panicked (a panic in a hydrating page leaves
 * the rest of it dead, which a test that looks elsewhere would not see).
 * Watches the test's own context and every context it opens, and closes
 * the ones it opened when it ends: left open, their pages kept their live
 * streams (`/api/events`) and sockets for the rest of the run, and after
 * some thirty tests a new page's stylesheet and wasm could wait past the
 * 20 s of `ready` (two CI runs failed so, on different tests).
 */
export const test = base.extend<{ noUncaughtErrors: void }>({
  noUncaughtErrors: [
    async ({ context, browser }, use) => {
      const errors: string[] = [];
      const watchPage = (page: Page) => {
        page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error' && message.text().includes('panicked')) {
            errors.push(`${page.url()}: ${message.text()}`);
          }
        });
      };
      const watch = (context: BrowserContext) => {
        context.pages().forEach(watchPage);
        context.on('page', watchPage);
      };
      watch(context);
      const opened: BrowserContext[] = [];
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const made = await newContext(...args);
        watch(made);
        opened.push(made);
        return made;
      };
      await use();
      browser.newContext = newContext;
      await Promise.all(opened.map((c) => c.close().catch(() => {})));
      expect(errors, 'uncaught errors or panics in the pages').toEqual([]);
    },
    { auto: true },
  ],
});

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

/** Clicks the link of `format` in the export paragraph `testid` and reads the file. */
export async function download(page: Page, testid: string, format: 'csv' | 'json' | 'latex'): Promise<{ name: string; text: string }> {
  const link = page.getByTestId(testid).locator(`a[data-format="${format}"]`);
  await expect(link).toHaveAttribute('download', '');
  const [file]: [Download, void] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await file.path();
  expect(path, 'the download completed').toBeTruthy();
  return { name: file.suggestedFilename(), text: readFileSync(path!, 'utf8') };
}

/** The rows of a CSV file (a header and records), without its byte-order mark. */
export function csvLines(text: string): string[] {
  expect(text.charCodeAt(0), 'a byte-order mark for Excel').toBe(0xfeff);
  return text.slice(1).trimEnd().split('\n');
}
