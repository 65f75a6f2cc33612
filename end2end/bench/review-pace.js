#!/usr/bin/env node
// Review pace (issue 17, point 6): a measuring script, not a test.
//
//   node end2end/bench/review-pace.js http://127.0.0.1:PORT
//
// Expects a server on a fresh demo database with an admin and two experts
// (scripts/bench-review.sh makes one). As the admin, through /review/manage,
// it creates review items of every kind (seed dialogues, case checks, judge
// verdicts of LCA, DCG and LJP, PLawBench and DLawBench rubric verdicts) and
// auto-assigns them to the two experts. Then expert 1 at 1280×900 and
// expert 2 at 390×844 each label 50 items of mixed kinds from their queue by
// keyboard alone (digits, Tab + typing where digits do nothing, Ctrl+Enter;
// `n` to the next item when the next one planned is the queue's next), and
// it prints, per viewport and kind: seconds per item (from navigation start
// to the status badge leaving 待标注: the tool's overhead, not human time),
// the viewport-height scrolls needed before the object of the decision and
// the first control are both in view at load (should be 0), and the page
// errors. One screenshot per kind per viewport goes to $SHOTS
// (default /tmp/pace-shots), e.g. lca-1280.png.
//
// Exit status: 0 when measured (whatever the figures), 2 when a setup step
// fails (the step is named).
//
// Selectors relied on: body[data-hydrated="true"]; /signin labels
// "Name 用户名", "Password 密码", button /^Sign in/, [data-testid=current-user];
// /review/manage: create-kind, create-task, labels /每个模型|每个任务|每种风格/
// and /上限/, create-items, assign-experts, auto-assign, manage-message;
// /review: queue-todo links; item page: item-status, label-form (or
// label-controls), decision-object (else judge-input, else dialogue),
// claim-N, points-KEY, .case-nav a (the `n →` link), role=alert.

const { chromium } = require('playwright-core');
const fs = require('fs');
const path = require('path');

const BASE = (process.argv[2] || process.env.BASE || '').replace(/\/$/, '');
const ADMIN = [process.env.ADMIN_NAME || 'admin', process.env.ADMIN_PASS || 'admin-pass-1'];
const EXPERTS = [
  [process.env.EXPERT1_NAME || '王律师', process.env.EXPERT1_PASS || 'expert-pass-1'],
  [process.env.EXPERT2_NAME || '李律师', process.env.EXPERT2_PASS || 'expert-pass-2'],
];
const ITEMS = Number(process.env.ITEMS || 50);
const SHOTS = process.env.SHOTS || '/tmp/pace-shots';
const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
];
const TODO = '待标注';

// The kinds as reported, in table order, with how many of each the 50 hold.
const KINDS = [
  { key: 'seed_dialogue', shot: 'seed', quota: 10 },
  { key: 'case_check', shot: 'case-check', quota: 10 },
  { key: 'judge_verdict lca', shot: 'lca', quota: 6 },
  { key: 'judge_verdict dcg', shot: 'dcg', quota: 6 },
  { key: 'judge_verdict ljp', shot: 'ljp', quota: 6 },
  { key: 'rubric_verdict plawbench', shot: 'plawbench', quota: 8 },
  { key: 'rubric_verdict dlawbench', shot: 'dlawbench', quota: 4 },
];

class SetupError extends Error {}

/** Runs a setup step; a failure names the step and ends the script (exit 2). */
async function step(name, fn) {
  const t = Date.now();
  try {
    const r = await fn();
    console.error(`  ok  ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    return r;
  } catch (e) {
    throw new SetupError(`setup step failed: ${name}: ${e && e.message ? e.message.split('\n')[0] : e}`);
  }
}

async function hydrated(page, timeout = 30_000) {
  await page.waitForSelector('body[data-hydrated="true"]', { timeout });
}

async function signIn(page, [name, password]) {
  await page.goto(`${BASE}/signin`);
  await hydrated(page);
  await page.getByLabel('Name 用户名').fill(name);
  await page.getByLabel('Password 密码').fill(password);
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await page.getByTestId('current-user').filter({ hasText: name }).waitFor({ timeout: 15_000 });
}

/**
 * Clicks `button` on /review/manage and waits for the server function it
 * calls; returns { body, text }: the response body and the message shown
 * (Leptos patches the message element in place, so a repeated text is not
 * a new element: the response is what is waited for). Throws on an error.
 */
async function manageAction(page, button) {
  const [resp] = await Promise.all([
    page.waitForResponse((r) => r.url().includes('/sfn/') && r.request().method() === 'POST', { timeout: 60_000 }),
    page.getByTestId(button).click(),
  ]);
  const body = (await resp.text()).trim();
  if (!resp.ok()) throw new Error(`HTTP ${resp.status()} from ${new URL(resp.url()).pathname}: ${body.slice(0, 300)}`);
  const msg = page.getByTestId('manage-message');
  await msg.waitFor({ timeout: 10_000 });
  await page.waitForTimeout(100);
  const text = (await msg.innerText()).trim();
  if (await msg.evaluate((m) => m.classList.contains('error-box'))) throw new Error(`the page says: ${text}`);
  return { body, text };
}

async function createItems(page, kind, { task, per, cap } = {}) {
  await page.getByTestId('create-kind').selectOption(kind);
  if (task) await page.getByTestId('create-task').selectOption(task);
  if (per != null) await page.getByLabel(/每个模型|每个任务|每种风格/).fill(String(per));
  if (cap != null) await page.getByLabel(/上限/).fill(String(cap));
  const { body, text } = await manageAction(page, 'create-items');
  let n;
  try {
    n = JSON.parse(body).created;
  } catch {
    n = Number((text.match(/已创建\s*(\d+)/) || [])[1]);
  }
  if (!(n > 0)) throw new Error(`no items created: ${body} / ${text}`);
  return n;
}

/** The kind (a KINDS key) of a queue entry, from its title. */
function kindOfTitle(title) {
  if (title.startsWith('种子对话')) return 'seed_dialogue';
  if (title.startsWith('案例核查')) return 'case_check';
  if (title.startsWith('裁判评估复核')) {
    const task = (title.match(/·\s*(LCA|DCG|LJP)\b/) || [])[1];
    return task ? `judge_verdict ${task.toLowerCase()}` : 'judge_verdict ?';
  }
  if (title.startsWith('评分复核')) return / · DL-/.test(title) ? 'rubric_verdict dlawbench' : 'rubric_verdict plawbench';
  return `other (${title.slice(0, 12)})`;
}

/** The 50 items to label: each kind's quota from the front of the queue, in queue order. */
function plan(queue) {
  const want = Object.fromEntries(KINDS.map((k) => [k.key, k.quota]));
  const chosen = new Set();
  queue.forEach((q, i) => {
    if (want[q.kind] > 0) {
      want[q.kind] -= 1;
      chosen.add(i);
    }
  });
  // A kind short of its quota: fill up from the front of the queue.
  for (let i = 0; i < queue.length && chosen.size < ITEMS; i++) chosen.add(i);
  return queue.filter((_, i) => chosen.has(i)).slice(0, ITEMS);
}

/** Scrolls needed at load, and what was measured (page-side). */
async function measure(page, kind) {
  return page.evaluate((kind) => {
    const judged = kind.startsWith('judge_verdict') || kind.startsWith('rubric_verdict');
    let object = document.querySelector('[data-testid="decision-object"]');
    let objectBy = 'decision-object';
    if (!object && judged) {
      object = document.querySelector('[data-testid="judge-input"]');
      objectBy = 'judge-input';
    }
    if (!object) {
      object = document.querySelector('[data-testid="dialogue"], .dialogue-comparison');
      objectBy = 'dialogue';
    }
    const box = document.querySelector('[data-testid="label-controls"]') || document.querySelector('[data-testid="label-form"]');
    const control = box && box.querySelector('input, button, select, textarea');
    const h = window.innerHeight;
    const tops = [object, control].map((e) => (e ? e.getBoundingClientRect().top + window.scrollY : null));
    let scrolls = null;
    if (tops.every((t) => t != null)) {
      const inView = tops.every((t) => t >= 0 && t <= h - 20);
      scrolls = inView ? 0 : Math.max(1, Math.ceil((Math.max(...tops) + 40 - h) / h));
    }
    return {
      scrollY: window.scrollY,
      innerHeight: h,
      objectBy: object ? objectBy : 'none',
      objectTop: tops[0],
      controlBy: box ? box.dataset.testid : 'none',
      controlTag: control ? control.tagName.toLowerCase() + (control.type ? `[${control.type}]` : '') : 'none',
      controlTop: tops[1],
      scrolls,
    };
  }, kind);
}

async function activeTag(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    return a ? a.tagName : '';
  });
}

/** Presses Tab until the focus is on the first `selector` inside the label form; returns the Tabs pressed. */
async function tabTo(page, selector, max = 250) {
  for (let tabs = 1; tabs <= max; tabs++) {
    await page.keyboard.press('Tab');
    const there = await page.evaluate(
      (sel) => !!document.activeElement && document.activeElement.matches(`[data-testid="label-form"] ${sel}`),
      selector,
    );
    if (there) return tabs;
  }
  throw new Error(`Tab did not reach ${selector} in ${max} presses`);
}

/**
 * Labels the item on the page by keyboard: returns { keys, tabs, toFirst, keyboardOnly }.
 * keyboardOnly is false where the kind's digits do nothing and the form is
 * reached with Tab and filled by typing.
 */
async function label(page, kind) {
  const kb = page.keyboard;
  let keys = 0;
  let tabs = 0;
  let toFirst = 0; // Tabs from the top of the page to the form's first control
  let keyboardOnly = true;
  if (kind === 'seed_dialogue' || kind === 'judge_verdict lca' || kind === 'judge_verdict dcg') {
    await kb.press('1');
    keys += 1;
  } else if (kind === 'judge_verdict ljp') {
    const claims = await page.locator('[data-testid^="claim-"]').count();
    if (claims === 0) throw new Error('no claim rows');
    for (let c = 0; c < claims; c++) await kb.press('1');
    keys += claims;
  } else if (kind === 'case_check') {
    // Every check passes by default: nothing to press but submit.
  } else if (kind === 'rubric_verdict plawbench') {
    const sel = '[data-testid^="points-"] input[type="number"]';
    const n = await page.locator(`[data-testid="label-form"] ${sel}`).count();
    if (n === 0) throw new Error('no points inputs');
    // The page focuses the first field on load; older pages need Tabs.
    await page.waitForTimeout(50);
    const focused = await page.evaluate(
      (s) => !!document.activeElement && document.activeElement.matches(`[data-testid="label-form"] ${s}`),
      sel,
    );
    if (!focused) {
      keyboardOnly = false;
      tabs = await tabTo(page, sel);
      toFirst = tabs;
      keys += tabs;
    }
    for (let u = 0; u < n; u++) {
      if (u > 0) {
        await kb.press('Tab');
        keys += 1;
        tabs += 1;
      }
      await kb.type('0');
      keys += 1;
    }
  } else if (kind === 'rubric_verdict dlawbench') {
    const n = await page.locator('[data-testid="label-form"] [data-testid^="points-"]').count();
    if (n === 0) throw new Error('no rubric marks');
    // One digit per mark (0 or 1); the focus moves to the next mark.
    for (let u = 0; u < n; u++) await kb.press('1');
    keys += n;
  } else {
    throw new Error(`no keyboard recipe for ${kind}`);
  }
  await kb.press('Control+Enter');
  keys += 1;
  return { keys, tabs, toFirst, keyboardOnly };
}

/** One expert at one viewport labels the planned items; returns one record per item. */
async function labelRun(browser, expert, viewport) {
  const tag = `${viewport.width}x${viewport.height}`;
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, isMobile: false });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const errors = [];
  let current = -1;
  page.on('pageerror', (e) => errors.push({ item: current, text: `pageerror: ${String(e.message || e).split('\n')[0]}` }));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push({ item: current, text: `console: ${m.text().split('\n')[0].slice(0, 200)}` });
  });

  await step(`${tag}: sign in as ${expert[0]}`, () => signIn(page, expert));
  const queue = await step(`${tag}: read the to-do queue on /review`, async () => {
    await page.goto(`${BASE}/review`);
    await hydrated(page);
    await page.getByTestId('queue-todo').waitFor({ timeout: 20_000 });
    const q = await page.getByTestId('queue-todo').getByRole('link').evaluateAll((as) =>
      as.map((a) => ({ href: a.href, title: a.textContent.trim() })),
    );
    if (q.length < ITEMS) throw new Error(`only ${q.length} items to do, need ${ITEMS}`);
    return q.map((x) => ({ ...x, path: new URL(x.href).pathname, kind: kindOfTitle(x.title) }));
  });
  const items = plan(queue);
  if (items[0].href !== queue[0].href) throw new Error('the plan does not start at the first to-do item');
  console.error(`  ${tag}: ${queue.length} to do; labelling ${items.length}: ` +
    KINDS.map((k) => `${k.key} ${items.filter((i) => i.kind === k.key).length}`).join(', '));

  const shot = new Set();
  const records = [];
  for (const [i, item] of items.entries()) {
    current = i;
    const rec = { i, kind: item.kind, path: item.path, nav: i === 0 ? 'goto' : '', failed: null };
    records.push(rec);
    try {
      const t0 = Date.now();
      // The queue's next item is this one: `n`, else a direct navigation.
      const next = i === 0 ? null : await page.locator('.case-nav a').filter({ hasText: /n →/ }).first().getAttribute('href', { timeout: 2000 }).catch(() => null);
      const nextPath = next ? new URL(next, BASE).pathname : null;
      if (nextPath === item.path && !['INPUT', 'TEXTAREA', 'SELECT'].includes(await activeTag(page))) {
        rec.nav = 'n';
        await Promise.all([page.waitForURL((u) => u.pathname === item.path, { timeout: 30_000 }), page.keyboard.press('n')]);
      } else {
        rec.nav = rec.nav || (nextPath === item.path ? 'goto (focus in a field)' : 'goto');
        await page.goto(item.href);
      }
      await hydrated(page);
      const status = page.getByTestId('item-status');
      await status.waitFor();
      if (!(await status.innerText()).includes(TODO)) throw new Error(`status is not ${TODO}`);
      const tLoad = Date.now();
      rec.m = await measure(page, item.kind);
      const k = KINDS.find((x) => x.key === item.kind);
      if (k && !shot.has(k.key)) {
        shot.add(k.key);
        await page.screenshot({ path: path.join(SHOTS, `${k.shot}-${viewport.width}.png`) });
      }
      Object.assign(rec, await label(page, item.kind));
      await page.waitForFunction(
        (todo) => {
          const s = document.querySelector('[data-testid="item-status"]');
          return (s && !s.textContent.includes(todo)) || !!document.querySelector('[role="alert"]');
        },
        TODO,
        { timeout: 20_000 },
      );
      const alert = page.locator('[role="alert"]');
      if ((await alert.count()) > 0 && (await page.getByTestId('item-status').innerText()).includes(TODO)) {
        throw new Error(`refused: ${(await alert.first().innerText()).trim()}`);
      }
      const t1 = Date.now();
      rec.seconds = (t1 - t0) / 1000;
      rec.load = (tLoad - t0) / 1000;
    } catch (e) {
      rec.failed = String(e.message || e).split('\n')[0];
      console.error(`  ${tag}: item ${i + 1} ${item.path} (${item.kind}) failed: ${rec.failed}`);
    }
  }
  current = -1;
  for (const r of records) r.errors = errors.filter((e) => e.item === r.i).map((e) => e.text);
  const outside = errors.filter((e) => e.item < 0).map((e) => e.text);
  await context.close();
  return { tag, expert: expert[0], records, outside };
}

function median(xs) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
const fmt = (x, d = 2) => (x == null ? '—' : Number(x).toFixed(d).replace(/\.0+$/, ''));

function row(cols, widths) {
  return cols.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
}

function report(run) {
  const head = ['kind', 'items', 'med s/item', 'max s', 'med load s', 'scrolls max', 'scrolls med', 'page errors', 'failed', 'med keys', 'kbd-only', 'object measured'];
  const widths = [26, 5, 10, 6, 10, 11, 11, 11, 6, 8, 18, 15];
  const lines = [`viewport ${run.tag} (${run.expert})`, row(head, widths), '-'.repeat(widths.reduce((a, b) => a + b + 2, -2))];
  const summarise = (name, rs) => {
    const ok = rs.filter((r) => !r.failed);
    const scrolls = rs.filter((r) => r.m && r.m.scrolls != null).map((r) => r.m.scrolls);
    const kbd = [...new Set(ok.map((r) => r.keyboardOnly))];
    const objects = [...new Set(rs.filter((r) => r.m).map((r) => r.m.objectBy))].join('/');
    const tabs = median(ok.map((r) => r.toFirst || 0));
    return row([
      name,
      rs.length,
      fmt(median(ok.map((r) => r.seconds))),
      fmt(ok.length ? Math.max(...ok.map((r) => r.seconds)) : null),
      fmt(median(ok.map((r) => r.load))),
      scrolls.length ? Math.max(...scrolls) : '—',
      fmt(median(scrolls), 1),
      rs.reduce((n, r) => n + r.errors.length, 0),
      rs.filter((r) => r.failed).length,
      fmt(median(ok.map((r) => r.keys)), 1),
      kbd.length === 0 ? '—' : kbd.length > 1 ? 'mixed' : kbd[0] ? 'yes' : `no (Tab×${fmt(tabs, 0)} to 1st)`,
      objects || '—',
    ], widths);
  };
  const kinds = [...KINDS.map((k) => k.key), ...new Set(run.records.map((r) => r.kind).filter((k) => !KINDS.some((x) => x.key === k)))];
  for (const k of kinds) {
    const rs = run.records.filter((r) => r.kind === k);
    if (rs.length) lines.push(summarise(k, rs));
  }
  lines.push(summarise('total', run.records));
  const byN = run.records.filter((r) => r.nav === 'n').length;
  lines.push(`navigation: ${byN} by \`n\`, ${run.records.length - byN} by direct URL (next planned item not the queue's next, or the first)`);
  const errs = [...run.records.flatMap((r) => r.errors.map((e) => `item ${r.i + 1} ${r.path}: ${e}`)), ...run.outside.map((e) => `outside items: ${e}`)];
  lines.push(errs.length ? `page errors (${errs.length}):` : 'page errors: none');
  for (const e of errs.slice(0, 30)) lines.push(`  ${e}`);
  const fails = run.records.filter((r) => r.failed);
  for (const r of fails) lines.push(`  failed: item ${r.i + 1} ${r.path} (${r.kind}): ${r.failed}`);
  return lines.join('\n');
}

/** Per kind, the geometry of its first item (where the object and first control sit). */
function geometry(run) {
  const seen = new Set();
  const out = [];
  for (const r of run.records) {
    if (!r.m || seen.has(r.kind)) continue;
    seen.add(r.kind);
    out.push(`  ${r.kind.padEnd(26)} object ${r.m.objectBy} top ${fmt(r.m.objectTop, 0)} px · first control ${r.m.controlTag} in ${r.m.controlBy} top ${fmt(r.m.controlTop, 0)} px · viewport ${r.m.innerHeight} px · scrollY at load ${r.m.scrollY}`);
  }
  return `first item of each kind at ${run.tag}:\n${out.join('\n')}`;
}

async function main() {
  if (!BASE) throw new SetupError('usage: node end2end/bench/review-pace.js BASE_URL');
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await step('launch chromium', () =>
    chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] }),
  );
  try {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const admin = await ctx.newPage();
    admin.setDefaultTimeout(20_000);
    await step(`sign in as ${ADMIN[0]}`, () => signIn(admin, ADMIN));
    await step('open /review/manage', async () => {
      await admin.goto(`${BASE}/review/manage`);
      await hydrated(admin);
    });
    const made = {};
    made.seed = await step('create seed_dialogue items', () => createItems(admin, 'seed_dialogue'));
    made.case = await step('create case_check items', () => createItems(admin, 'case_check'));
    for (const task of ['lca', 'dcg', 'ljp']) {
      made[task] = await step(`create judge_verdict ${task} items`, () => createItems(admin, 'judge_verdict', { task, per: 3, cap: 9 }));
    }
    made.plaw = await step('create PLawBench rubric_verdict items', () => createItems(admin, 'rubric_verdict', { per: 2, cap: 8 }));
    made.dlaw = await step('create DLawBench rubric_verdict items', () => createItems(admin, 'rubric_verdict@dlawbench', { per: 1, cap: 4 }));
    const assigned = await step('auto-assign to the two experts', async () => {
      await admin.getByTestId('assign-experts').fill(EXPERTS.map((e) => e[0]).join(', '));
      const { body, text } = await manageAction(admin, 'auto-assign');
      const n = Number.isFinite(Number(body)) ? Number(body) : Number((text.match(/已分配\s*(\d+)/) || [])[1]);
      if (!(n > 0)) throw new Error(`nothing assigned: ${body} / ${text}`);
      return n;
    });
    await ctx.close();
    const total = Object.values(made).reduce((a, b) => a + b, 0);
    console.log(`review pace · ${BASE} · ${new Date().toISOString()}`);
    console.log(`items created: ${Object.entries(made).map(([k, v]) => `${k} ${v}`).join(', ')} (${total}); assignments ${assigned}`);
    console.log('seconds: navigation start to the status badge leaving 待标注, scripted (tool overhead, not human time); ' +
      'scrolls: viewport heights to scroll before the object of the decision and the first control are both in view (must be 0)');
    console.log('');

    const runs = [];
    for (const [k, viewport] of VIEWPORTS.entries()) runs.push(await labelRun(browser, EXPERTS[k], viewport));
    for (const run of runs) {
      console.log(report(run));
      console.log(geometry(run));
      console.log('');
    }
    console.log(`screenshots (viewport at load, first item of each kind): ${SHOTS}`);
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.error(e instanceof SetupError ? e.message : `setup failed: ${e && e.stack ? e.stack : e}`);
  process.exit(2);
});
