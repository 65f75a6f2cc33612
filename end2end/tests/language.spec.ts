import { Page } from '@playwright/test';
import { test, expect, ready } from './helpers';

// Issue 16: one language at a time. The switch in the header sets a cookie
// and returns to the page; every page after it is in the chosen language;
// without a choice the browser's language decides.

async function expectLang(page: Page, lang: 'zh' | 'en') {
  await expect(page.locator('html')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
  const nav = page.locator('header.site-header nav');
  if (lang === 'zh') {
    await expect(nav).toContainText('排行榜');
    await expect(nav).not.toContainText('Leaderboard');
  } else {
    await expect(nav).toContainText('Leaderboard');
    await expect(nav).not.toContainText('排行榜');
  }
}

test('the switch sets the language for every page until switched back', async ({ page, context }) => {
  await page.goto('/leaderboard?task=dcg');
  await ready(page);
  await expectLang(page, 'en');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Leaderboard');

  await page.getByTestId('lang-switch').click();
  await expect(page).toHaveURL(/\/leaderboard\?task=dcg$/);
  await expectLang(page, 'zh');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('排行榜');
  const cookies = await context.cookies();
  expect(cookies.find((c) => c.name === 'lang')?.value).toBe('zh');

  // It persists across pages, reached by clicking.
  for (const [link, url] of [['案例', /\/cases$/], ['概览', /\/$/], ['PLawBench', /\/plawbench$/], ['DLawBench', /\/dlawbench$/]] as const) {
    await page.locator('header.site-header nav').getByRole('link', { name: link, exact: true }).click();
    await expect(page).toHaveURL(url);
    await expectLang(page, 'zh');
  }
  await page.goto('/cases/DEMO-0001');
  await expectLang(page, 'zh');
  await expect(page.getByTestId('pair-tabs')).toContainText('完整咨询');
  await page.goto('/signin');
  await ready(page);
  await expectLang(page, 'zh');
  await expect(page.getByLabel('用户名')).toBeVisible();

  await page.getByTestId('lang-switch').click();
  await expect(page).toHaveURL(/\/signin$/);
  await expectLang(page, 'en');
  await expect(page.getByLabel('Name')).toBeVisible();
});

test.describe('a browser that asks for Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('reads Chinese without choosing', async ({ page }) => {
    await page.goto('/');
    await expectLang(page, 'zh');
    await expect(page.getByTestId('lang-switch')).toHaveText('English');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the switch is a plain link', async ({ page }) => {
    await page.goto('/cases');
    await expectLang(page, 'en');
    await page.getByTestId('lang-switch').click();
    await expect(page).toHaveURL(/\/cases$/);
    await expectLang(page, 'zh');
  });
});
