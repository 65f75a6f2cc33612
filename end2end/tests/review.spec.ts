import { Browser, Page } from '@playwright/test';
import { test, expect, csvLines, download, ready, signIn } from './helpers';

// Legal experts whose browsers ask for Chinese: the expert pages (and
// every other page these contexts open) are Chinese.
test.use({ locale: 'zh-CN' });

async function as(browser: Browser, name: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, name, password);
  return page;
}

/** Labels every item of the expert's queue with the keyboard only: a digit, Ctrl+Enter, `n`. */
async function labelQueue(page: Page, digits: string[]) {
  await page.goto('/review');
  await ready(page);
  await page.getByTestId('queue-todo').getByRole('link').first().click();
  for (const [i, digit] of digits.entries()) {
    await ready(page);
    await expect(page.getByTestId('item-status')).toContainText('待标注');
    await page.keyboard.press(digit);
    await page.keyboard.press('Control+Enter');
    await expect(page.getByTestId('item-status')).not.toContainText('待标注');
    // Blind until now: the judge's label shows only after submitting.
    await expect(page.getByTestId('judge-label')).toBeVisible();
    if (i + 1 < digits.length) {
      await page.keyboard.press('n');
      await page.waitForURL(/\/review\/items\/\d+/);
    }
  }
}

/** The dashboard's counts: items, final, in adjudication. */
async function counts(page: Page): Promise<number[]> {
  const text = await page.getByTestId('dashboard-counts').innerText();
  return (text.match(/\d+/g) ?? []).map(Number);
}

test('two experts label blind, a disagreement is adjudicated and the dashboard updates', async ({ browser }) => {
  test.setTimeout(180_000);
  // The dashboard is open while the experts work; it updates live. Its
  // counts start from whatever other review tests left (other benchmarks').
  const board = await as(browser, 'admin', 'admin-pass-1');
  await board.goto('/review/agreement');
  await ready(board);
  await expect(board.getByTestId('live-badge')).toContainText('实时');
  const [items0, final0, waiting0] = await counts(board);

  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/review/manage');
  await ready(admin);
  await admin.getByTestId('create-kind').selectOption('judge_verdict');
  await admin.getByTestId('create-task').selectOption('lca');
  await admin.getByLabel(/每个模型/).fill('1');
  await admin.getByLabel(/上限/).fill('3');
  await admin.getByTestId('create-items').click();
  await expect(admin.getByTestId('manage-message')).toContainText('3');
  await admin.getByTestId('auto-assign').click();
  await expect(admin.getByTestId('manage-message')).toContainText('6');

  await expect(board.getByTestId('dashboard-counts')).toContainText(`条目 ${items0 + 3}`);

  const wang = await as(browser, '王律师', 'expert-pass-1');
  await labelQueue(wang, ['1', '1', '1']);
  const li = await as(browser, '李律师', 'expert-pass-2');
  await labelQueue(li, ['2', '1', '1']);

  await expect(board.getByTestId('dashboard-counts')).toContainText(`待裁决 ${waiting0 + 1}`);

  await admin.goto('/review/adjudication');
  await ready(admin);
  const card = admin.locator('[data-testid^="adjudicate-"]');
  await expect(card).toHaveCount(1);
  await card.getByTestId('final-label').fill('ask');
  await card.getByTestId('final-reason').fill('回复先追问了缺失的事实');
  await card.getByTestId('record-final').click();
  await expect(admin.getByTestId('no-adjudication')).toBeVisible();

  await expect(board.getByTestId('dashboard-counts')).toContainText(`已定稿 ${final0 + 3}`);
  await expect(board.getByTestId('agreement-table')).toContainText('0.667');
});

test('a seed correction shows in the case history with a diff', async ({ browser }) => {
  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/cases/DEMO-0003/edit');
  await ready(admin);
  const turn = admin.getByTestId('turn-underspecified-0');
  await turn.fill((await turn.inputValue()) + '另外，对方一直不接电话。');
  await admin.getByTestId('reason').fill('补充当事人的描述');
  await admin.getByTestId('save-correction').click();
  await expect(admin.getByTestId('save-notice')).toContainText('修订 2');

  await admin.goto('/cases/DEMO-0003');
  const history = admin.getByTestId('case-history');
  await expect(history).toContainText('补充当事人的描述');
  await expect(history.locator('ins')).toContainText('另外，对方一直不接电话。');
});

test('an admin designates an expert, who adjudicates a disagreement they did not label', async ({ browser }) => {
  test.setTimeout(180_000);
  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/review/manage');
  await ready(admin);
  await admin.getByTestId('create-kind').selectOption('judge_verdict');
  await admin.getByTestId('create-task').selectOption('dcg');
  await admin.getByLabel(/每个模型/).fill('1');
  await admin.getByLabel(/上限/).fill('2');
  await admin.getByTestId('create-items').click();
  await expect(admin.getByTestId('manage-message')).toContainText('2');
  await admin.getByTestId('auto-assign').click();
  await expect(admin.getByTestId('manage-message')).toContainText('4');

  // A third expert joins after the assignment, and is designated adjudicator.
  await admin.goto('/admin/users');
  await ready(admin);
  await admin.getByLabel('用户名', { exact: true }).fill('张律师');
  await admin.getByRole('combobox', { name: '角色', exact: true }).selectOption('expert');
  await admin.getByLabel(/^密码/).fill('expert-pass-3');
  await admin.getByRole('button', { name: '添加', exact: true }).click();
  await expect(admin.getByTestId('user-张律师')).toContainText('法律专家');
  await admin.getByTestId('designate-张律师').click();
  await expect(admin.getByTestId('designate-张律师')).toContainText('撤销');

  const wang = await as(browser, '王律师', 'expert-pass-1');
  await labelQueue(wang, ['1', '1']);
  const li = await as(browser, '李律师', 'expert-pass-2');
  await labelQueue(li, ['2', '1']);
  await li.goto('/review');
  await expect(li.getByTestId('queue-adjudication').getByRole('link')).toHaveCount(1);
  // An expert who is not designated has no way in: no link, and 403 behind it.
  await expect(li.getByTestId('adjudication-link')).toHaveCount(0);

  const zhang = await as(browser, '张律师', 'expert-pass-3');
  await zhang.goto('/review');
  await ready(zhang);
  await zhang.getByTestId('adjudication-link').click();
  await ready(zhang);
  const card = zhang.locator('[data-testid^="adjudicate-"]');
  await expect(card).toHaveCount(1);
  await card.getByTestId('final-label').fill('rejected');
  await card.getByTestId('final-reason').fill('请求没有指向缺失的事实');
  await card.getByTestId('record-final').click();
  await expect(zhang.getByTestId('adjudication-note')).toContainText('已裁决');
  await expect(zhang.getByTestId('no-adjudication')).toBeVisible();

  await li.reload();
  await expect(li.getByTestId('queue-adjudication').getByRole('link')).toHaveCount(0);
});

// Last in this file: it reads the items the tests above leave.
test('the agreement dashboard exports its tables to experts and admins only', async ({ browser }) => {
  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/review/agreement');
  await ready(admin);
  const agreement = await download(admin, 'export-agreement', 'csv');
  expect(agreement.name).toBe('agreement-agreement.csv');
  expect(csvLines(agreement.text).length - 1).toBe(await admin.getByTestId('agreement-table').locator('tbody tr').count());
  const progress = await download(admin, 'export-progress', 'json');
  const experts = JSON.parse(progress.text).rows.map((r: { expert: string }) => r.expert);
  expect(experts).toContain('王律师');

  const expert = await as(browser, '王律师', 'expert-pass-1');
  await expert.goto('/review/agreement');
  await ready(expert);
  const own = await download(expert, 'export-progress', 'csv');
  expect(csvLines(own.text)[0]).toMatch(/^(专家|Expert),/);

  const researcher = await as(browser, 'researcher', 'research-pass-1');
  const refused = await researcher.request.get('/api/export/review/agreement?table=progress');
  expect(refused.status()).toBe(403);
  const anonymous = await (await browser.newContext()).request.get('/api/export/review/agreement');
  expect(anonymous.status()).toBe(401);
});
