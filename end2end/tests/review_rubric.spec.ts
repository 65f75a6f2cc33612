import { Browser, Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

// Legal experts whose browsers ask for Chinese: the expert pages (and
// every other page these contexts open) are Chinese.
test.use({ locale: 'zh-CN' });

// Independent of the other review tests: its items are PLawBench's, scored
// and final by the end, assigned to two experts by name.

async function as(browser: Browser, name: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, name, password);
  return page;
}

/** Scores every PLawBench item of the expert's to-do list: `points(i, unit)` for unit `unit` of the i-th item. */
async function scoreQueue(page: Page, points: (item: number, unit: number) => string) {
  await page.goto('/review');
  await ready(page);
  const links = page.getByTestId('queue-todo').getByRole('link', { name: /PLawBench/ });
  const hrefs = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  expect(hrefs.length).toBe(2);
  for (const [i, href] of hrefs.entries()) {
    await page.goto(href);
    await ready(page);
    await expect(page.getByTestId('item-status')).toContainText('待标注');
    // The thing judged and its rubric are there; the judge's points are not.
    await expect(page.getByTestId('judge-input')).toBeVisible();
    await expect(page.getByTestId('rubric')).toBeVisible();
    await expect(page.getByTestId('judge-label')).toHaveCount(0);
    const inputs = page.locator('[data-testid^="points-"] input');
    const n = await inputs.count();
    expect(n).toBeGreaterThan(0);
    // A section over its maximum is refused with the section named.
    const max = await inputs.first().getAttribute('max');
    await inputs.first().fill(String(Number(max) + 1));
    for (let u = 1; u < n; u++) await inputs.nth(u).fill('0');
    await page.getByTestId('submit-label').click();
    await expect(page.getByRole('alert')).toContainText('section');
    for (let u = 0; u < n; u++) await inputs.nth(u).fill(points(i, u));
    await page.getByTestId('submit-label').click();
    await expect(page.getByTestId('item-status')).not.toContainText('待标注');
    // Blind until now: the judge's points show only after submitting.
    await expect(page.getByTestId('judge-label')).toBeVisible();
  }
}

test('PLawBench rubric verdicts: scored blind per section, adjudicated, judge and experts compared', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/review/manage');
  await ready(admin);
  await admin.getByTestId('create-kind').selectOption('rubric_verdict');
  await admin.getByLabel(/每个任务/).fill('1');
  await admin.getByLabel(/上限/).fill('2');
  await admin.getByTestId('create-items').click();
  await expect(admin.getByTestId('manage-message')).toContainText('已创建 2');
  // Balanced over the two experts named (others may exist by now).
  await admin.getByTestId('assign-experts').fill('王律师, 李律师');
  await admin.getByTestId('auto-assign').click();
  await expect(admin.getByTestId('manage-message')).toContainText('已分配 4');

  const board = await as(browser, 'admin', 'admin-pass-1');
  await board.goto('/review/agreement');
  await ready(board);
  await expect(board.getByTestId('live-badge')).toContainText('实时');

  const wang = await as(browser, '王律师', 'expert-pass-1');
  await scoreQueue(wang, () => '0');
  const li = await as(browser, '李律师', 'expert-pass-2');
  // Agrees on the first item; half a point more on the second's first section.
  await scoreQueue(li, (item, unit) => (item === 1 && unit === 0 ? '0.5' : '0'));

  await expect(board.getByTestId('sheet-table')).toBeVisible();
  await expect(board.getByTestId('sheet-table')).toContainText('MAD');

  await admin.goto('/review/adjudication');
  await ready(admin);
  const card = admin.locator('[data-testid^="adjudicate-"]');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('PLawBench');
  await card.getByRole('button', { name: /李律师/ }).click();
  await card.getByTestId('final-reason').fill('第一部分确有半分要点');
  await card.getByTestId('record-final').click();
  await expect(admin.getByTestId('no-adjudication')).toBeVisible();

  // Both items final: the judge is compared with the consensus of each.
  const first = board.getByTestId('sheet-table').locator('tbody tr').first();
  await expect(first.locator('td').nth(3)).toHaveText('1'); // judge-human pairs of the task
  await expect(first.locator('td').nth(7)).toHaveText('1'); // human-human pairs
  await board.screenshot({ path: 'test-results/rubric-agreement.png', fullPage: true });
});
