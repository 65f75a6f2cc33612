import { Browser, Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

// Legal experts whose browsers ask for Chinese: the expert pages (and
// every other page these contexts open) are Chinese.
test.use({ locale: 'zh-CN' });

// Expert review at a working pace (issue 17): for every kind of item, the
// object of the decision and the label controls are in view on load at
// 1280×900 and at 390×844, no wire identifier shows in either language, the
// item page's progress agrees with the queue's, and the active time of a
// label is recorded and exported.
//
// Runs after simulator.spec (file names run in order, one worker): its
// auto-assign hands out every open item, the fidelity study's included.

async function as(browser: Browser, name: string, password: string, width = 1280, height = 900): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
  await signIn(page, name, password);
  return page;
}

const KINDS: [string, RegExp][] = [
  ['seed dialogue', /^种子对话/],
  ['case check', /^案例核查/],
  ['LCA verdict', /· LCA/],
  ['DCG verdict', /· DCG/],
  ['LJP verdict', /· LJP/],
  ['PLawBench rubric', /PLawBench/],
  ['DLawBench panel', /DLawBench/],
  ['simulator reply', /^模拟用户回复/],
];

// Wire names that must never reach the page text.
const SNAKE = /\b[a-z]+(?:_[a-z]+)+\b/g;
// Labels doubled in both languages (the case pages' until their switch).
const DOUBLED = /用户 User|助手 Assistant|完整咨询 Complete|信息缺失咨询 Underspecified/g;

async function inView(page: Page, selector: string): Promise<{ top: number; height: number }> {
  return page.locator(selector).first().evaluate((el) => ({
    top: el.getBoundingClientRect().top,
    height: window.innerHeight,
  }));
}

test('every item kind shows what is judged and the controls without scrolling, in words', async ({ browser }) => {
  test.setTimeout(240_000);
  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/review/manage');
  await ready(admin);
  const make = async (kind: string, fill: (p: Page) => Promise<void> = async () => {}) => {
    await admin.getByTestId('create-kind').selectOption(kind);
    await fill(admin);
    // This click's creation, not another call the form makes meanwhile:
    // behind a load balancer the next step may reach another server first.
    const done = admin.waitForResponse((r) => r.url().includes('/sfn/create_review_items') && r.request().method() === 'POST');
    await admin.getByTestId('create-items').click();
    expect((await done).status()).toBe(200);
  };
  await make('seed_dialogue');
  await make('case_check');
  await make('judge_verdict', async (p) => {
    await p.getByTestId('create-task').selectOption('ljp');
    await p.getByLabel(/每个模型/).fill('1');
    await p.getByLabel(/上限/).fill('2');
  });
  await make('rubric_verdict@dlawbench', async (p) => {
    await p.getByLabel(/每种风格|每个任务|每个模型/).fill('1');
    await p.getByLabel(/上限/).fill('2');
  });
  await make('rubric_verdict', async (p) => {
    await p.getByLabel(/每个任务/).fill('2');
    await p.getByLabel(/上限/).fill('6');
  });
  await admin.getByTestId('assign-experts').fill('王律师, 李律师');
  const assigned = admin.waitForResponse((r) => r.url().includes('/sfn/assign_reviews') && r.request().method() === 'POST');
  await admin.getByTestId('auto-assign').click();
  expect((await assigned).status()).toBe(200);

  const desk = await as(browser, '王律师', 'expert-pass-1');
  await desk.goto('/review');
  await ready(desk);
  const total = Number(((await desk.getByTestId('progress').innerText()).match(/\d+ \/ (\d+)/) ?? [])[1]);
  expect(total).toBeGreaterThan(100);
  const links = await desk.locator('ul.queue a').evaluateAll((as) =>
    as.map((a) => ({ text: (a as HTMLAnchorElement).innerText, href: (a as HTMLAnchorElement).href })));
  const phone = await as(browser, '王律师', 'expert-pass-1', 390, 844);

  for (const [name, title] of KINDS) {
    const link = links.find((l) => title.test(l.text));
    expect(link, `an item of kind ${name} in the queue`).toBeTruthy();
    for (const page of [desk, phone]) {
      for (const lang of ['', '?lang=en']) {
        await page.goto(link!.href + lang);
        await ready(page);
        const where = `${name} at ${page.viewportSize()!.width} px${lang}`;
        // On a phone the label sheet is one row until opened: its submit
        // button stands for the controls (thing_judged_phone.spec opens it).
        const controls = page === phone ? '[data-testid="submit-label"]' : '[data-testid="label-controls"] input';
        for (const part of ['[data-testid="decision-object"]', controls]) {
          const { top, height } = await inView(page, part);
          expect(top, `${where}: ${part} in view`).toBeGreaterThanOrEqual(0);
          expect(top, `${where}: ${part} in view`).toBeLessThan(height - 20);
        }
        const text = await page.locator('body').innerText();
        expect(text.match(SNAKE) ?? [], `${where}: no wire names`).toEqual([]);
        expect(text.match(DOUBLED) ?? [], `${where}: one language at a time`).toEqual([]);
        // The item's place in the whole queue: the queue page's total.
        await expect(page.getByTestId('item-position')).toHaveText(new RegExp(`^\\d+ / ${total}$`));
      }
    }
  }

  // On a phone the pair does not interleave: tabs show one consultation.
  const pair = links.find((l) => /^案例核查/.test(l.text))!;
  await phone.goto(pair.href);
  await ready(phone);
  await expect(phone.getByTestId('pair-tabs')).toBeVisible();
  await expect(phone.locator('.turn.c-complete').first()).toBeVisible();
  await expect(phone.locator('.turn.c-underspecified:visible')).toHaveCount(0);
  await phone.getByTestId('pair-tab-under').click();
  await expect(phone.locator('.turn.c-underspecified').first()).toBeVisible();
  await expect(phone.locator('.turn.c-complete:visible')).toHaveCount(0);
  await desk.goto(pair.href);
  await expect(desk.getByTestId('dialogue')).toBeVisible();
  await expect(desk.getByTestId('pair-tabs')).toBeHidden();
  await expect(desk.locator('.turn.c-underspecified').first()).toBeVisible();

  // A label by keyboard records the active time, exported with the label.
  await desk.goto('/review');
  await ready(desk);
  const todo = await desk.locator('[data-testid="queue-todo"] a').evaluateAll((as) =>
    as.map((a) => ({ text: (a as HTMLAnchorElement).innerText, href: (a as HTMLAnchorElement).href })));
  const check = todo.find((l) => /^案例核查/.test(l.text));
  expect(check).toBeTruthy();
  await desk.goto(check!.href);
  await ready(desk);
  await desk.waitForTimeout(2_100);
  await desk.keyboard.press('Control+Enter');
  await expect(desk.getByTestId('item-status')).not.toContainText('待标注');
  const id = Number(check!.href.match(/items\/(\d+)/)![1]);
  const jsonl = await (await admin.request.get('/api/review/export?format=jsonl')).text();
  const line = jsonl.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((i) => i.item_id === id);
  const mine = line.labels.find((l: { expert: string }) => l.expert === '王律师');
  expect(mine.seconds).toBeGreaterThanOrEqual(2);
  expect(mine.seconds).toBeLessThan(120);

  // Flag one as unclear by keyboard (f, a comment, Enter), without a label.
  const next = todo.find((l) => /^种子对话/.test(l.text));
  await desk.goto(next!.href);
  await ready(desk);
  await desk.keyboard.press('f');
  await desk.getByTestId('unclear-comment').fill('第二轮的时间顺序看不懂');
  await desk.keyboard.press('Enter');
  await expect(desk.getByTestId('unclear-note')).toContainText('第二轮的时间顺序看不懂');
  await expect(desk.getByTestId('item-status')).toContainText('待标注');
  await desk.goto('/review/agreement');
  await ready(desk);
  await expect(desk.getByTestId('expert-王律师')).toBeVisible();
});

test('the management list filters and pages, and an expert leaving hands over their open items', async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await as(browser, 'admin', 'admin-pass-1');
  await admin.goto('/review/manage');
  await ready(admin);
  // Case checks and seeds are made one per case or seed: the form says so
  // and takes no count.
  await admin.getByTestId('create-kind').selectOption('case_check');
  await expect(admin.getByTestId('create-hint')).toContainText('每个案例各建一条');
  await expect(admin.getByLabel(/每个模型/)).toBeDisabled();
  await admin.getByTestId('create-kind').selectOption('judge_verdict');
  await expect(admin.getByLabel(/每个模型/)).toBeEnabled();

  const count = async () => {
    const text = await admin.getByTestId('manage-count').innerText();
    const [, matching, total, page, pages] = text.match(/(\d+) 条符合（共 (\d+) 条）· 第 (\d+) \/ (\d+) 页/)!.map(Number);
    return { matching, total, page, pages };
  };
  const ids = async () => admin.locator('[data-testid="manage-items"] tbody tr td:first-child').allInnerTexts();
  const all = await count();
  expect(all.matching).toBe(all.total);
  expect(all.pages).toBeGreaterThan(1);
  const first = (await ids()).map(Number);
  expect(first).toHaveLength(50);
  await admin.getByTestId('manage-next').click();
  await expect(admin).toHaveURL(/page=2/);
  await expect(admin.getByTestId('manage-count')).toContainText(`第 2 / ${all.pages} 页`);
  const second = (await ids()).map(Number);
  expect(Math.max(...second)).toBeLessThan(Math.min(...first));

  // The GET form filters by kind and status; the counts follow.
  await admin.goto('/review/manage');
  await ready(admin);
  await admin.getByTestId('manage-kind').selectOption('case_check');
  await admin.getByTestId('manage-apply').click();
  await expect(admin).toHaveURL(/kind=case_check/);
  const checks = await count();
  expect(checks.matching).toBeLessThan(all.matching);
  const titles = await admin.locator('[data-testid="manage-items"] tbody tr td:nth-child(2)').allInnerTexts();
  expect(titles.every((t) => t.startsWith('案例核查'))).toBe(true);
  await admin.getByTestId('manage-status').selectOption('todo');
  await admin.getByTestId('manage-apply').click();
  await expect(admin).toHaveURL(/status=todo/);
  const statuses = await admin.locator('[data-testid="manage-items"] tbody td[data-status]').evaluateAll((tds) =>
    tds.map((td) => td.getAttribute('data-status')));
  expect(statuses.length).toBeGreaterThan(0);
  expect(statuses.every((s) => s === 'todo')).toBe(true);
  expect((await count()).matching).toBeLessThanOrEqual(checks.matching);

  // A new expert takes over 李律师's open items.
  await admin.goto('/admin/users');
  await ready(admin);
  await admin.getByLabel('用户名', { exact: true }).fill('赵律师');
  await admin.locator('select[name="role"]').selectOption('expert');
  await admin.getByLabel(/^密码/).fill('expert-pass-3');
  await admin.getByRole('button', { name: '添加', exact: true }).click();
  await expect(admin.getByTestId('user-赵律师')).toBeVisible();
  await admin.goto('/review/manage?expert=李律师&status=todo');
  await ready(admin);
  const open = (await count()).matching;
  expect(open).toBeGreaterThan(0);
  await admin.getByTestId('reassign-from').fill('李律师');
  await admin.getByTestId('reassign-to').fill('赵律师');
  await admin.getByTestId('reassign').click();
  await expect(admin.getByTestId('reassign-message')).toContainText(/已移交 \d+ 条/);
  const moved = Number((await admin.getByTestId('reassign-message').innerText()).match(/已移交 (\d+) 条/)![1]);
  expect(moved).toBeGreaterThanOrEqual(open);
  await admin.goto('/review/manage?expert=赵律师');
  await ready(admin);
  expect((await count()).matching).toBe(moved);
  const zhao = await as(browser, '赵律师', 'expert-pass-3');
  await zhao.goto('/review');
  await ready(zhao);
  await expect(zhao.getByTestId('progress')).toContainText(`0 / ${moved}`);
});
