import { readFileSync } from 'node:fs';
import { Browser, BrowserContext, Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

// Accessibility (issue 39, point 15): axe-core checks every page of the app,
// every route of app/src/routes.rs with real ids from the demo data, signed
// in with a role that may use it, in both languages, at 1280 and 390 px.
// Any serious or critical violation fails, printed with where it is.
//
// Runs last (file names run in order, one worker): the review specs before it
// leave items of every kind; alone, it makes the items it visits.

const AXE = require.resolve('axe-core');

/** Every route of the app, read from the one file that declares them. */
const ROUTES = [...readFileSync(`${__dirname}/../../app/src/routes.rs`, 'utf8').matchAll(/path!\("([^"]+)"\)/g)].map((m) => m[1]);

type Who = 'anonymous' | 'admin' | 'researcher' | 'expert';
const ACCOUNTS: Record<Exclude<Who, 'anonymous'>, [string, string]> = {
  admin: ['admin', 'admin-pass-1'],
  researcher: ['researcher', 'research-pass-1'],
  expert: ['王律师', 'expert-pass-1'],
};

/** Who visits each route that needs a role (the rest are anyone's). */
const ROLE: Record<string, Who> = {
  '/cases/:case_id/edit': 'admin',
  '/runs/upload': 'researcher',
  '/review': 'expert',
  '/review/items/:id': 'expert',
  '/review/agreement': 'expert',
  '/review/fidelity': 'expert',
  '/review/manage': 'admin',
  '/review/adjudication': 'admin',
  '/admin/users': 'admin',
  '/admin/runs': 'admin',
};

/** The review item kinds, by their title in the Chinese queue. */
const REVIEW_KINDS: RegExp[] = [/^种子对话/, /^案例核查/, /· LCA/, /· DCG/, /· LJP/, /PLawBench/, /DLawBench/, /^模拟用户回复/];

type Violation = { id: string; impact: string | null; help: string; nodes: { target: string[]; failureSummary?: string }[] };

const contexts = new Map<Who, BrowserContext>();
const urls = new Map<string, string[]>();

async function contextOf(browser: Browser, who: Who): Promise<BrowserContext> {
  let context = contexts.get(who);
  if (!context) {
    // axe is injected as an inline script, which the pages' CSP refuses.
    context = await browser.newContext({ bypassCSP: true });
    if (who !== 'anonymous') {
      const page = await context.newPage();
      await signIn(page, ...ACCOUNTS[who]);
      await page.close();
    }
    contexts.set(who, context);
  }
  return context;
}

/** The hrefs of the links matching `selector` on `path`. */
async function hrefs(page: Page, path: string, selector: string): Promise<string[]> {
  await page.goto(path);
  const found = await page.locator(selector).evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).getAttribute('href')!));
  expect(found.length, `a link ${selector} on ${path}`).toBeGreaterThan(0);
  return found;
}

/** Makes review items of every kind a form makes (no-ops where they exist) and hands them to two experts. */
async function makeReviewItems(admin: Page) {
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
      await admin.getByLabel(/每个模型|per model/i).fill('1');
      await admin.getByLabel(/上限|cap/i).fill('2');
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

/** Finds real URLs for every route: ids from the demo data, links as the pages give them. */
async function discover(browser: Browser) {
  const page = await (await contextOf(browser, 'anonymous')).newPage();
  const add = (route: string, ...found: string[]) => urls.set(route, found);
  add('/', '/');
  add('/cases', '/cases');
  const caseHref = (await hrefs(page, '/cases', 'a.case-link'))[0];
  add('/cases/:case_id', caseHref);
  add('/cases/:case_id/edit', `${caseHref}/edit`);
  add('/leaderboard', '/leaderboard');
  const drills: string[] = [];
  for (const task of ['lca', 'dcg', 'ljp']) {
    drills.push((await hrefs(page, `/leaderboard?task=${task}`, '[data-testid="leaderboard"] a.cell-link'))[0]);
  }
  add('/leaderboard/items', ...drills);
  const models = [...new Set(await hrefs(page, '/leaderboard', 'a[href^="/models/"]'))];
  add('/models/:model', models[0]);
  const names = models.slice(0, 2).map((m) => m.slice('/models/'.length));
  add('/compare', `/compare?a=${names[0]}&b=${names[1]}`);
  add('/paper', '/paper');
  add('/plawbench', '/plawbench');
  add('/plawbench/items', '/plawbench/items');
  add('/plawbench/items/:item_id', (await hrefs(page, '/plawbench/items', 'a[href^="/plawbench/items/"]'))[0]);
  add('/plawbench/leaderboard', '/plawbench/leaderboard');
  const plawCell = (await hrefs(page, '/plawbench/leaderboard', 'a[href^="/plawbench/leaderboard/items"]'))[0];
  add('/plawbench/leaderboard/items', plawCell);
  add('/plawbench/leaderboard/item', (await hrefs(page, plawCell, 'a[href^="/plawbench/leaderboard/item?"]'))[0]);
  add('/dlawbench', '/dlawbench');
  add('/dlawbench/cases', '/dlawbench/cases');
  add('/dlawbench/cases/:case_id', (await hrefs(page, '/dlawbench/cases', 'a[href^="/dlawbench/cases/"]'))[0]);
  add('/dlawbench/leaderboard', '/dlawbench/leaderboard');
  const dlawCell = (await hrefs(page, '/dlawbench/leaderboard', 'a[href^="/dlawbench/leaderboard/sessions"]'))[0];
  add('/dlawbench/leaderboard/sessions', dlawCell);
  add('/dlawbench/leaderboard/session', (await hrefs(page, dlawCell, 'a[href^="/dlawbench/leaderboard/session?"]'))[0]);
  add('/runs/upload', '/runs/upload');
  add('/review', '/review');
  add('/review/manage', '/review/manage');
  add('/review/adjudication', '/review/adjudication');
  add('/review/agreement', '/review/agreement');
  add('/review/fidelity', '/review/fidelity');
  add('/signin', '/signin');
  add('/admin/users', '/admin/users');
  add('/admin/runs', '/admin/runs');
  await page.close();

  // One review item of each kind in the expert's queue.
  const expert = await (await contextOf(browser, 'expert')).newPage();
  const queue = async () => {
    await expert.goto('/review?lang=zh');
    return expert.locator('ul.queue a').evaluateAll((as) =>
      as.map((a) => ({ text: (a as HTMLAnchorElement).innerText, href: a.getAttribute('href')! })));
  };
  let items = await queue();
  if (REVIEW_KINDS.slice(0, 7).some((kind) => !items.some((i) => kind.test(i.text)))) {
    const admin = await (await contextOf(browser, 'admin')).newPage();
    await makeReviewItems(admin);
    await admin.close();
    items = await queue();
  }
  const kinds = REVIEW_KINDS.flatMap((kind) => items.filter((i) => kind.test(i.text)).slice(0, 1).map((i) => i.href));
  expect(kinds.length, 'review items of the seven kinds the forms make').toBeGreaterThanOrEqual(7);
  add('/review/items/:id', ...kinds.map((href) => href.replace(/\?.*$/, '')));
  await expert.close();
}

/** The serious and critical violations axe finds on the page. */
async function axeRun(page: Page): Promise<Violation[]> {
  await page.addScriptTag({ path: AXE });
  const violations: Violation[] = await page.evaluate(async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const result = await (window as any).axe.run(document);
    return result.violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

function describe(where: string, v: Violation): string {
  const nodes = v.nodes.slice(0, 4).map((n) => `    ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`);
  const more = v.nodes.length > 4 ? [`    … and ${v.nodes.length - 4} more`] : [];
  return [`${where}: ${v.id} (${v.impact}, ${v.nodes.length}×) ${v.help}`, ...nodes, ...more].join('\n');
}

test('axe finds nothing serious or critical on any page, in both languages, at 1280 and 390 px', async ({ browser }) => {
  test.setTimeout(1_200_000);
  await discover(browser);
  expect(ROUTES.length, 'routes read from app/src/routes.rs').toBeGreaterThan(25);
  expect(ROUTES.filter((route) => !urls.has(route)), 'routes without a page to check').toEqual([]);

  const found: string[] = [];
  let pages = 0;
  for (const route of [...ROUTES, '/no-such-page']) {
    const page = await (await contextOf(browser, ROLE[route] ?? 'anonymous')).newPage();
    for (const url of urls.get(route) ?? [route]) {
      for (const lang of ['zh', 'en']) {
        for (const [width, height] of [[1280, 900], [390, 844]]) {
          await page.setViewportSize({ width, height });
          const response = await page.goto(`${url}${url.includes('?') ? '&' : '?'}lang=${lang}`);
          expect(response!.status(), `${url} answers`).toBeLessThan(route === '/no-such-page' ? 500 : 400);
          await ready(page);
          for (const v of await axeRun(page)) found.push(describe(`${url} ${lang} ${width}px`, v));
          pages += 1;
        }
      }
    }
    await page.close();
  }
  for (const context of contexts.values()) await context.close();
  contexts.clear();
  console.log(`axe: ${pages} pages checked, ${found.length} serious or critical violations`);
  expect(found, `serious or critical axe violations:\n${found.join('\n')}`).toEqual([]);
});
