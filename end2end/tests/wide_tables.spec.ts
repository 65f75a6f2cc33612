import { Browser, Locator, Page } from '@playwright/test';
import { test, expect, ready } from './helpers';

// Wide tables (issue 39, point 9): a table wider than its panel scrolls
// sideways with a visible cue (a shadow at the edge beyond which columns
// lie, gone once that edge is reached) and its first column stays in view
// while it scrolls; nothing else on a page runs off the screen; and the
// figures a phone reader comes for are on the first screen.

async function pageAt(browser: Browser, width: number, height: number): Promise<Page> {
  return (await browser.newContext({ viewport: { width, height } })).newPage();
}

/**
 * The median brightness (0–255) of a strip `width` px wide just inside the
 * right edge of `scroller`, as the screen shows it: decoded from a
 * screenshot in the page's own canvas.
 */
async function rightEdge(page: Page, scroller: Locator, width = 3): Promise<number> {
  await scroller.scrollIntoViewIfNeeded();
  const { right, top, bottom } = await scroller.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { right: r.left + el.clientLeft + el.clientWidth, top: Math.max(r.top, 0), bottom: Math.min(r.top + el.clientTop + el.clientHeight, window.innerHeight) };
  });
  expect(bottom - top, 'the table is on the screen').toBeGreaterThan(20);
  const png = await page.screenshot({ clip: { x: right - width - 1, y: top, width, height: bottom - top } });
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const values: number[] = [];
    for (let i = 0; i < pixels.length; i += 4) values.push((pixels[i] + pixels[i + 1] + pixels[i + 2]) / 3);
    values.sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)];
  }, png.toString('base64'));
}

/**
 * Checks every table scroller on the page: one that overflows shows the cue
 * at its right edge, and once scrolled to its end the cue is gone and the
 * first column is still at the left edge. Returns how many overflowed.
 */
async function checkScrollers(page: Page, where: string): Promise<number> {
  const scrollers = page.locator('.table-scroll:visible');
  let overflowing = 0;
  for (let i = 0; i < (await scrollers.count()); i++) {
    const scroller = scrollers.nth(i);
    const { scrollWidth, clientWidth } = await scroller.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    if (scrollWidth <= clientWidth + 1) continue;
    overflowing += 1;
    const name = `${where}: table ${i + 1} (${scrollWidth} px in ${clientWidth})`;
    await scroller.evaluate((el) => { el.scrollLeft = 0; });
    expect(await rightEdge(page, scroller), `${name}: a shadow at the right edge says more columns lie beyond`).toBeLessThan(235);
    await scroller.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
    expect(await rightEdge(page, scroller), `${name}: the shadow is gone at the last column`).toBeGreaterThan(240);
    // The row's label (its first cell that stays put: the first column or,
    // in the paper's tables, the model after its category) has not left at
    // the left edge, in the first row that is not one cell across the table.
    const offset = await scroller.evaluate((el) => {
      const row = [...el.querySelectorAll('tbody tr')].find((tr) => (tr as HTMLTableRowElement).cells[0]?.colSpan === 1) as HTMLTableRowElement;
      const label = [...row.cells].find((cell) => cell.getClientRects().length > 0 && getComputedStyle(cell).position === 'sticky');
      return label ? label.getBoundingClientRect().left - (el.getBoundingClientRect().left + el.clientLeft) : null;
    });
    expect(offset, `${name}: the first column stays in view when scrolled`).not.toBeNull();
    expect(offset!, `${name}: the first column stays in view when scrolled`).toBeGreaterThanOrEqual(-1);
    await scroller.evaluate((el) => { el.scrollLeft = 0; });
  }
  return overflowing;
}

async function pageFits(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${where}: nothing runs off the side of the page`).toBeLessThanOrEqual(innerWidth);
}

test('the model page: the LJP table fits 1280 px or shows the scroll cue, and its first column stays when scrolled', async ({ browser }) => {
  const page = await pageAt(browser, 1280, 900);
  await page.goto('/leaderboard');
  const model = (await page.locator('a[href^="/models/"]').first().getAttribute('href'))!;
  await page.goto(model);
  await ready(page);
  const ljp = page.locator('h3', { hasText: /^LJP/ }).first().locator('xpath=following-sibling::div[contains(@class, "table-scroll")][1]');
  const { scrollWidth, clientWidth } = await ljp.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  if (scrollWidth > clientWidth + 1) {
    expect(await rightEdge(page, ljp), 'a shadow at the right edge says more columns lie beyond').toBeLessThan(235);
    await ljp.evaluate((el) => { el.scrollLeft = el.scrollWidth; });
    expect(await rightEdge(page, ljp), 'the shadow is gone at the last column').toBeGreaterThan(240);
    const left = await ljp.evaluate((el) => el.getBoundingClientRect().left + el.clientLeft);
    const run = (await ljp.locator('tbody tr:first-child > td:first-child').boundingBox())!;
    expect(Math.abs(run.x - left), 'the run column stays in view').toBeLessThanOrEqual(2);
  }
  await checkScrollers(page, model);
});

test('a phone sees a DLawBench score on the leaderboard\'s first screen', async ({ browser }) => {
  for (const lang of ['en', 'zh']) {
    const page = await pageAt(browser, 390, 844);
    await page.goto(`/dlawbench/leaderboard?lang=${lang}`);
    await ready(page);
    const score = page.getByTestId('dlaw-leaderboard').locator('tbody td a.cell-link').first();
    const b = (await score.boundingBox())!;
    expect(b.x, `${lang}: a score on the first screen`).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width, `${lang}: a score on the first screen`).toBeLessThanOrEqual(390);
    expect(b.y + b.height, `${lang}: a score on the first screen`).toBeLessThanOrEqual(844);
    await page.context().close();
  }
});

test('compare on a phone shows the interval and p beside each score', async ({ browser }) => {
  const page = await pageAt(browser, 390, 844);
  await page.goto('/leaderboard');
  const models = [...new Set(await page.locator('a[href^="/models/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!.slice('/models/'.length))))];
  for (const lang of ['en', 'zh']) {
    await page.goto(`/compare?a=${models[0]}&b=${models[1]}&lang=${lang}`);
    await ready(page);
    const table = page.getByTestId('compare');
    const header = table.locator('thead th');
    const row = table.locator('tbody tr').first();
    for (const [name, column] of [['A − B', 3], ['CI', 4], ['p', 5]] as const) {
      for (const cell of [header.nth(column), row.locator('td').nth(column)]) {
        await expect(cell, `${lang}: ${name}`).toBeVisible();
        const b = (await cell.boundingBox())!;
        expect(b.x + b.width, `${lang}: ${name} on the screen without scrolling`).toBeLessThanOrEqual(390);
      }
    }
    await pageFits(page, `compare ${lang}`);
  }
});

test('every wide table shows the cue and keeps its first column, and no page runs off the side', async ({ browser }) => {
  test.setTimeout(180_000);
  const anonymous = await pageAt(browser, 1280, 900);
  await anonymous.goto('/leaderboard');
  const models = [...new Set(await anonymous.locator('a[href^="/models/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!)))];
  const cell = async (path: string, selector: string) => {
    await anonymous.goto(path);
    return (await anonymous.locator(selector).first().getAttribute('href'))!;
  };
  const paths = [
    '/leaderboard', '/leaderboard?task=dcg', '/leaderboard?task=ljp',
    models[0],
    `/compare?a=${models[0].slice(8)}&b=${models[1].slice(8)}`,
    await cell('/leaderboard?task=lca', '[data-testid="leaderboard"] a.cell-link'),
    await cell('/leaderboard?task=ljp', '[data-testid="leaderboard"] a.cell-link'),
    '/paper',
    '/plawbench/leaderboard',
    await cell('/plawbench/leaderboard', 'a[href^="/plawbench/leaderboard/items"]'),
    '/dlawbench/leaderboard',
    await cell('/dlawbench/leaderboard', 'a[href^="/dlawbench/leaderboard/sessions"]'),
  ];
  await anonymous.context().close();
  let overflowing = 0;
  for (const [width, height] of [[1280, 900], [390, 844]]) {
    const page = await pageAt(browser, width, height);
    for (const path of paths) {
      await page.goto(path);
      await ready(page);
      const where = `${path} at ${width} px`;
      await pageFits(page, where);
      overflowing += await checkScrollers(page, where);
    }
    await page.context().close();
  }
  // The check above did check something: phones scroll some tables.
  expect(overflowing).toBeGreaterThan(0);
});
