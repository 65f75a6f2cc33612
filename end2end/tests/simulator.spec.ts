import { Page } from '@playwright/test';
import { test, expect, ready, signIn } from './helpers';

// Legal experts whose browsers ask for Chinese: the expert pages (and
// every other page these contexts open) are Chinese.
test.use({ locale: 'zh-CN' });

// The user-simulator fidelity study (Table 13) from the browser: an expert
// writes probes (a probe missing a question is refused, naming the field;
// one form posted without JavaScript), an admin runs the study against the
// scripted endpoint from the jobs page, and Table 13 reads without
// JavaScript. The study's replies become review items that the "auto-assign"
// of the review specs would hand out, so this file runs after them (files
// run in name order, one worker).

const stubUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1}/v1`;

/** Fills the questions and the agreed answer of probe form `form`. */
async function fill(form: ReturnType<Page['locator']>, broad: string) {
  await form.getByTestId('probe-direct').fill('请问借款约定的还款日期具体是哪一天？');
  await form.getByTestId('probe-indirect').fill('他当时说过什么时候把钱还给您吗？');
  await form.getByTestId('probe-broad').fill(broad);
  await form.getByTestId('probe-minimum').fill('说出约定的还款日期');
  await form.getByTestId('probe-permitted').fill('可以说明约定的方式（口头或书面）');
}

test('experts write fidelity probes, an admin runs the study, Table 13 reads without JavaScript', async ({ browser }) => {
  test.setTimeout(120_000);
  const expertContext = await browser.newContext();
  const expert = await expertContext.newPage();
  await signIn(expert, '王律师', 'expert-pass-1');
  await expert.goto('/review');
  await ready(expert);
  await expert.getByTestId('probes-link').click();
  await expect(expert).toHaveURL(/\/review\/fidelity$/);
  await ready(expert);
  // Reached by a client-side navigation: the sheet loads after the page.
  await expect(expert.getByTestId('probes-progress')).toBeVisible();
  const forms = expert.locator('section.probe');
  await expect(forms.first()).toBeVisible();
  const total = await forms.count();
  expect(total).toBeGreaterThanOrEqual(3);
  await expect(expert.getByTestId('probes-progress')).toContainText(`0 / ${total}`);

  // A probe without its broad question is refused, the field named.
  const first = forms.nth(0);
  await fill(first, '');
  await first.getByTestId('probe-save').click();
  await expect(first.getByTestId('probe-notice')).toContainText('broad: must not be empty');
  await expect(first.getByTestId('probe-status')).toContainText('待写');
  await first.getByTestId('probe-broad').fill('您了解借款合同履行期限的法律规定吗？');
  await first.getByTestId('probe-save').click();
  await expect(first.getByTestId('probe-notice')).toContainText('已保存');
  await expect(first.getByTestId('probe-status')).toContainText('已写');
  await expect(expert.getByTestId('probes-progress')).toContainText(`1 / ${total}`);

  // The second keeps A–C only.
  const second = forms.nth(1);
  await fill(second, '您了解借款合同履行期限的法律规定吗？');
  await second.getByTestId('probe-withheld-on').uncheck();
  await second.getByTestId('probe-save').click();
  await expect(second.getByTestId('probe-status')).toContainText('已写');
  await expect(expert.getByTestId('probes-progress')).toContainText(`2 / ${total}`);

  // The third is posted as a plain form, without JavaScript.
  const offContext = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await expertContext.storageState(),
  });
  const off = await offContext.newPage();
  await off.goto('/review/fidelity');
  const third = off.locator('section.probe').nth(2);
  await fill(third, '您了解借款合同履行期限的法律规定吗？');
  await third.getByTestId('probe-save').click();
  await off.waitForLoadState();
  await off.goto('/review/fidelity');
  await expect(off.getByTestId('probes-progress')).toContainText(`3 / ${total}`);
  await expect(off.locator('section.probe').nth(2).getByTestId('probe-status')).toContainText('已写');

  // The admin runs the study from the jobs page, in English.
  const admin = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await signIn(admin, 'admin', 'admin-pass-1');
  await admin.goto('/admin/runs');
  await ready(admin);
  const endpoint = admin.locator('form.endpoint-form.filters');
  for (const [name, model] of [['e2e-simulator', 'E2E-Simulator'], ['e2e-dcg', 'E2E-DCG-Judge']]) {
    await endpoint.locator('input[name="name"]').fill(name);
    await endpoint.locator('input[name="base_url"]').fill(stubUrl);
    await endpoint.locator('input[name="model"]').fill(model);
    await endpoint.getByRole('button', { name: /^Add/ }).click();
    await expect(admin.getByTestId('endpoints-table')).toContainText(model);
  }
  const form = admin.locator('form.start-form');
  await form.getByTestId('job-benchmark').selectOption('lexpilot');
  await form.getByTestId('job-experiment').selectOption('fidelity');
  await form.locator('select[name="model"]').selectOption({ label: 'e2e-simulator · E2E-Simulator' });
  await form.locator('select[name="user"]').selectOption({ label: 'e2e-simulator · E2E-Simulator' });
  await form.getByRole('checkbox', { name: 'e2e-dcg · E2E-DCG-Judge' }).check();
  await form.locator('input[name="runs"]').fill('1');
  await form.getByTestId('start-job').click();
  const row = admin.locator('tr[data-testid="job-row"]', { hasText: 'User-simulator fidelity (Table 13)' });
  await expect(row).toContainText('user E2E-Simulator');
  await expect(row).toHaveAttribute('data-status', 'done', { timeout: 60_000 });

  // Probes are fixed now.
  await expert.reload();
  await expect(expert.getByTestId('probes-fixed')).toBeVisible();
  await expect(expert.locator('section.probe').first().getByTestId('probe-save')).toBeDisabled();

  // Table 13 without JavaScript: A–C for three probes, D for two.
  await off.goto('/paper#table-13');
  await expect(off.getByTestId('table-13-empty')).toHaveCount(0);
  await expect(off.getByTestId('table-13-progress')).toContainText('模拟器 E2E-Simulator · DCG 评审模型 E2E-DCG-Judge · 3 个探针 · 11 条回复中已标注 0 条');
  await expect(off.getByTestId('paper-table_13').locator('tbody tr')).toHaveCount(4);
  await expect(off.getByTestId('table-13-figures')).toContainText('间接 − 直接回答率');
  const csv = await off.request.get('/api/leaderboard/export?paper=table_13&format=csv');
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain('D: Withheld');
});
