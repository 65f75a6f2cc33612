import { Browser, Locator, Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

// Expert review on a phone (issue 39, point 10): at 390×844 the label sheet
// is one row along the bottom on load (what is chosen so far, and the submit
// button), what is judged starts in view above it, the page is the one
// scroll area (no box scrolling inside it), and the sheet opens on demand to
// the label controls. For every kind of item, in both languages.
//
// Runs after thing_judged.spec and simulator.spec (file names run in order,
// one worker), whose items it finds in the expert's queue; alone, it makes
// them (all but the simulator replies, which only a fidelity job makes).

test.use({ locale: 'zh-CN' });

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

async function as(browser: Browser, name: string, password: string, width: number, height: number): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
  await signIn(page, name, password);
  return page;
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, 'a box on the page').not.toBeNull();
  return b!;
}

/** Makes items of every kind the management form makes (existing ones are kept) and hands them to two experts. */
async function makeItems(admin: Page) {
  await admin.goto('/review/manage');
  await ready(admin);
  const make = async (kind: string, fill: () => Promise<void> = async () => {}) => {
    await admin.getByTestId('create-kind').selectOption(kind);
    await fill();
    const done = admin.waitForResponse((r) => r.url().includes('/sfn/create_review_items') && r.request().method() === 'POST');
    await admin.getByTestId('create-items').click();
    expect((await done).status()).toBe(200);
  };
  await make('seed_dialogue');
  await make('case_check');
  for (const task of ['lca', 'dcg', 'ljp']) {
    await make('judge_verdict', async () => {
      await admin.getByTestId('create-task').selectOption(task);
      await admin.getByLabel(/每个模型/).fill('1');
      await admin.getByLabel(/上限/).fill('2');
    });
  }
  for (const kind of ['rubric_verdict', 'rubric_verdict@dlawbench']) {
    await make(kind, async () => {
      await admin.getByLabel(/每种风格|每个任务|每个模型/).fill('1');
      await admin.getByLabel(/上限/).fill('2');
    });
  }
  await admin.getByTestId('assign-experts').fill('王律师, 李律师');
  const assigned = admin.waitForResponse((r) => r.url().includes('/sfn/assign_reviews') && r.request().method() === 'POST');
  await admin.getByTestId('auto-assign').click();
  expect((await assigned).status()).toBe(200);
}

type Link = { text: string; href: string };

async function queue(page: Page, list = 'ul.queue'): Promise<Link[]> {
  await page.goto('/review');
  await ready(page);
  return page.locator(`${list} a`).evaluateAll((as) =>
    as.map((a) => ({ text: (a as HTMLAnchorElement).innerText, href: (a as HTMLAnchorElement).href })));
}

test('on a phone the label sheet is one row, what is judged starts in view, and the page is the one scroll area', async ({ browser }) => {
  test.setTimeout(240_000);
  const phone = await as(browser, '王律师', 'expert-pass-1', 390, 844);
  let links = await queue(phone);
  if (KINDS.slice(0, 7).some(([, title]) => !links.some((l) => title.test(l.text)))) {
    await makeItems(await as(browser, 'admin', 'admin-pass-1', 1280, 900));
    links = await queue(phone);
  }
  const height = 844;
  for (const [name, title] of KINDS) {
    const link = links.find((l) => title.test(l.text));
    if (!link) {
      // Only a fidelity job makes simulator replies (simulator.spec runs one).
      expect(name, 'every kind the management form makes is in the queue').toBe('simulator reply');
      continue;
    }
    for (const lang of ['', '?lang=en']) {
      await phone.goto(link.href + lang);
      await ready(phone);
      const where = `${name}${lang}`;

      // The sheet: one row along the bottom, its submit button in it.
      const sheet = await box(phone.getByTestId('label-panel'));
      expect(sheet.height, `${where}: the sheet is one row`).toBeLessThanOrEqual(72);
      expect(sheet.y + sheet.height, `${where}: the sheet sits on the bottom edge`).toBeGreaterThan(height - 2);
      const submit = await box(phone.getByTestId('submit-label'));
      expect(submit.y, `${where}: submit in view on load`).toBeGreaterThanOrEqual(sheet.y);
      expect(submit.y + submit.height, `${where}: submit in view on load`).toBeLessThanOrEqual(height);
      await expect(phone.getByTestId('sheet-toggle')).toHaveAttribute('aria-expanded', 'false');

      // What is judged starts in view, above the sheet.
      const decision = phone.getByTestId('decision-object');
      const judgeInput = decision.getByTestId('judge-input');
      const text = (await judgeInput.count()) > 0 ? judgeInput : decision.locator('.turn-text').filter({ visible: true }).first();
      const start = await box(text);
      expect(start.y, `${where}: the judged text starts in view`).toBeGreaterThanOrEqual(0);
      expect(start.y + 24, `${where}: the judged text starts above the sheet`).toBeLessThanOrEqual(sheet.y);

      // One scroll area: nothing in the page scrolls inside it.
      const inner = await phone.locator('.review-main').evaluate((main) =>
        [main, ...main.querySelectorAll('*')]
          .filter((el) => /(auto|scroll)/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1)
          .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`));
      expect(inner, `${where}: no box scrolls inside the page`).toEqual([]);

      // The sheet opens on demand to the label controls, and closes again.
      const control = phone.locator('[data-testid="label-controls"] input').first();
      await expect(control).toBeHidden();
      await phone.getByTestId('sheet-toggle').click();
      await expect(phone.getByTestId('sheet-toggle')).toHaveAttribute('aria-expanded', 'true');
      await expect(control).toBeInViewport();
      await expect(phone.getByTestId('submit-label')).toBeInViewport();
      await phone.getByTestId('sheet-toggle').click();
      await expect(control).toBeHidden();
    }
  }

  // A case check from the one row: the digits still toggle checks (the row
  // says so), and the submit button there submits.
  const todo = await queue(phone, '[data-testid="queue-todo"]');
  const check = todo.find((l) => /^案例核查/.test(l.text));
  expect(check, 'a case check to do').toBeTruthy();
  await phone.goto(check!.href);
  await ready(phone);
  await expect(phone.getByTestId('sheet-summary')).toHaveText('四项核查均通过');
  await phone.keyboard.press('4');
  await expect(phone.getByTestId('sheet-summary')).toHaveText('1 项不通过');
  await phone.keyboard.press('4');
  await expect(phone.getByTestId('sheet-summary')).toHaveText('四项核查均通过');
  await phone.getByTestId('submit-label').click();
  await expect(phone.getByTestId('item-status')).not.toContainText('待标注');
});

test('on a desktop the label panel stays beside what is judged, without the one-row toggle', async ({ browser }) => {
  const desk = await as(browser, '王律师', 'expert-pass-1', 1280, 900);
  const links = await queue(desk);
  const link = links.find((l) => /· LJP/.test(l.text)) ?? links[0];
  expect(link, 'an item in the queue').toBeTruthy();
  await desk.goto(link.href);
  await ready(desk);
  await expect(desk.getByTestId('sheet-toggle')).toBeHidden();
  await expect(desk.locator('[data-testid="label-controls"] input').first()).toBeInViewport();
  const panel = await box(desk.getByTestId('label-panel'));
  const main = await box(desk.getByTestId('decision-object'));
  expect(panel.x, 'the panel is beside the main column').toBeGreaterThan(main.x + main.width - 1);
});
