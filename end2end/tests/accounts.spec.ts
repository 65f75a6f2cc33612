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
