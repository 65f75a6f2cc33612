import { Browser, Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

// DLawBench's human check of the client simulator, in the browser: an
// admin draws one session per style, two experts name each simulated
// client's style blind, and the dashboard shows accuracy and kappa per
// style beside the paper's. While an item is open its session is kept out
// of the DLawBench drill-downs for everyone but admins.
test.use({ locale: 'zh-CN' });

const MODEL = 'Sim-Frontier-5 (simulated)';

async function as(browser: Browser, name: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, name, password);
  return page;
}

/** Names the style of every client-style item of the expert's to-do list as the first choice. */
async function nameStyles(page: Page): Promise<number> {
  await page.goto('/review');
  await ready(page);
  const links = page.getByTestId('queue-todo').getByRole('link', { name: /模拟当事人风格/ });
  const hrefs = await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
  for (const href of hrefs) {
    await page.goto(href);
    await ready(page);
    await expect(page.getByTestId('item-status')).toContainText('待标注');
    // The client's turns, and neither the style nor the session.
    await expect(page.getByTestId('client-style-turns')).toBeVisible();
    await expect(page.getByTestId('revealed')).toHaveCount(0);
    await expect(page.getByTestId('decision-object')).not.toContainText(/s\d-\d{3}/);
    await page.locator('input[name="label"]').first().check();
    await page.getByTestId('submit-label').click();
    await expect(page.getByTestId('item-status')).not.toContainText('待标注');
    // Once named, the simulated style shows.
    await expect(page.getByTestId('revealed')).toContainText('模拟设定的风格');
  }
  return hrefs.length;
}

test('DLawBench client style: named blind, kept out of drill-downs while open, scored per style', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/review/manage');
  await ready(admin);
  await admin.getByTestId('create-kind').selectOption('client_style');
  await admin.getByTestId('create-run').fill(`${MODEL} #1`);
  await admin.getByLabel(/每种风格/).fill('1');
  await admin.getByLabel(/上限/).fill('4');
  await admin.getByTestId('create-items').click();
  await expect(admin.getByTestId('manage-message')).toContainText('已创建 4');
  await admin.getByTestId('assign-experts').fill('王律师, 李律师');
  await admin.getByTestId('auto-assign').click();
  await expect(admin.getByTestId('manage-message')).toContainText('已分配 8');

  // An expert cannot look a session's style up: the style's cell leaves
  // the open session out and says so; an admin's lists it.
  const cell = `/dlawbench/leaderboard/sessions?model=${encodeURIComponent(MODEL)}&metric=inquiry&style=withdrawn`;
  const wang = await as(browser, '王律师', 'expert-pass-1');
  await wang.goto(cell);
  await ready(wang);
  await expect(wang.getByTestId('style-review-left-out')).toContainText('1 个会话');
  await admin.goto(cell);
  await ready(admin);
  await expect(admin.getByTestId('style-review-left-out')).toHaveCount(0);

  expect(await nameStyles(wang)).toBe(4);
  const li = await as(browser, '李律师', 'expert-pass-2');
  expect(await nameStyles(li)).toBe(4);

  await admin.goto('/review/agreement');
  await ready(admin);
  const table = admin.getByTestId('client-style-table');
  await expect(table).toBeVisible();
  await expect(admin.getByTestId('client-style-paper')).toContainText('96.9%');
  // One segment per style, four overall.
  await expect(table.getByTestId('style-n')).toHaveText(['1', '1', '1', '1', '4']);
  // Both experts gave the first choice everywhere: one style right of four.
  await expect(admin.getByTestId('client-style-confusion')).toBeVisible();
  await admin.screenshot({ path: 'test-results/client-style-agreement.png', fullPage: true });
});
