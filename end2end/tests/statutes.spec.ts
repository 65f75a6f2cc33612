import { test, expect } from './helpers';

// Statute citations in model responses: the article opens on keyboard focus
// or a tap, with no JavaScript; repealed laws are flagged and counted.
const drill = '/leaderboard/items?model=' + encodeURIComponent('Sim-LawAssist-7B (simulated)') +
  '&task=ljp&setup=direct&class=overall';

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a cited article opens on focus and flagged citations are counted', async ({ page }) => {
    await page.goto(drill);
    await expect(page.getByTestId('citation-summary')).toContainText('repealed');
    const inForce = page.locator('[data-testid="citation"][data-state="in_force"]').first();
    const pop = inForce.locator('.cite-pop');
    await expect(pop).toBeHidden();
    await inForce.focus();
    await expect(pop).toBeVisible();
    await expect(pop).toContainText('《中华人民共和国民法典》第一千零七十九条');
    await expect(pop).toContainText('夫妻一方要求离婚的');
    const repealed = page.locator('[data-testid="citation"][data-state="repealed"]').first();
    await repealed.focus();
    await expect(repealed.locator('.cite-pop')).toContainText('repealed');
    // Only one popover is open at a time.
    await expect(page.locator('.cite-pop:visible')).toHaveCount(1);
  });
});

test('on a phone a tap opens the article as a sheet inside the screen', async ({ browser }) => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true });
  await page.goto(drill);
  const cite = page.locator('[data-testid="citation"][data-state="in_force"]').first();
  await cite.scrollIntoViewIfNeeded();
  await cite.tap();
  const pop = cite.locator('.cite-pop');
  await expect(pop).toBeVisible();
  const box = await pop.boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  expect(box!.y + box!.height).toBeLessThanOrEqual(844);
  await page.close();
});
