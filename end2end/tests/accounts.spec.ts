import { test, expect, ready } from './helpers';

test('sign in, see user and role in the header, sign out', async ({ page }) => {
  await page.goto('/signin');
  await ready(page);
  await page.getByLabel('Name', { exact: true }).fill('王律师');
  await page.getByLabel('Password', { exact: true }).fill('expert-pass-1');
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await expect(page).toHaveURL(/\/$/);
  const user = page.getByTestId('current-user');
  await expect(user).toContainText('王律师');
  await expect(user).toContainText('expert');
  await ready(page);
  await page.getByRole('button', { name: /Sign out/ }).click();
  await expect(page.getByRole('link', { name: /Sign in/ })).toBeVisible();
  await expect(page.getByTestId('current-user')).toHaveCount(0);
});

test('a wrong password is refused with a message', async ({ page }) => {
  await page.goto('/signin');
  await ready(page);
  await page.getByLabel('Name', { exact: true }).fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await expect(page.getByTestId('sign-in-error')).toContainText('Wrong name or password');
  await expect(page.getByTestId('current-user')).toHaveCount(0);
});

test('an admin adds an account with the least privileged role by default and resets its password', async ({ page, browser }) => {
  // Two browsers sign in and load the app: more than one page's time.
  test.setTimeout(90_000);
  await page.goto('/signin');
  await ready(page);
  await page.getByLabel('Name', { exact: true }).fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('admin-pass-1');
  await page.getByRole('button', { name: /^Sign in/ }).click();
  await expect(page.getByTestId('current-user')).toContainText('admin');
  await page.goto('/admin/users');
  await ready(page);

  // The role offered first is the researcher's, not the admin's.
  const add = page.locator('form', { has: page.getByTestId('new-role') });
  await expect(add.getByTestId('new-role')).toHaveValue('researcher');
  await add.locator('input[name="name"]').fill('新研究员');
  await add.locator('input[name="password"]').fill('first-pass-1');
  await add.getByRole('button', { name: /^Add/ }).click();
  await expect(page.getByTestId('user-新研究员')).toContainText('Researcher');

  // The new account signs in elsewhere; the admin resets its password.
  const other = await (await browser.newContext()).newPage();
  await other.goto('/signin');
  await ready(other);
  await other.getByLabel('Name', { exact: true }).fill('新研究员');
  await other.getByLabel('Password', { exact: true }).fill('first-pass-1');
  await other.getByRole('button', { name: /^Sign in/ }).click();
  await expect(other.getByTestId('current-user')).toContainText('新研究员');

  const reset = page.locator('section', { has: page.getByRole('heading', { name: 'Reset a password' }) });
  await reset.getByRole('textbox', { name: 'Name' }).fill('新研究员');
  await reset.getByRole('textbox', { name: 'New password (8+ characters)' }).fill('second-pass-2');
  await reset.getByRole('button', { name: /^Reset/ }).click();
  await expect(page.getByTestId('password-reset')).toContainText('新研究员 has a new password and was signed out everywhere');

  // Signed out there; the old password no longer works, the new one does.
  await other.reload();
  await expect(other.getByTestId('current-user')).toHaveCount(0);
  await other.goto('/signin');
  await ready(other);
  await other.getByLabel('Name', { exact: true }).fill('新研究员');
  await other.getByLabel('Password', { exact: true }).fill('first-pass-1');
  await other.getByRole('button', { name: /^Sign in/ }).click();
  await expect(other.getByTestId('sign-in-error')).toBeVisible();
  await other.getByLabel('Name', { exact: true }).fill('新研究员');
  await other.getByLabel('Password', { exact: true }).fill('second-pass-2');
  await other.getByRole('button', { name: /^Sign in/ }).click();
  await expect(other.getByTestId('current-user')).toContainText('新研究员');
});
