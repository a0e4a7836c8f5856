import { expect, test } from '@playwright/test';
import { signInAs, signInNewAccount, uniqueEmail } from './helpers/auth.ts';

// Issue 16: the mobile menu shows the signed-in state as the header does (name, plan, sign out).

test('the menu names a subscriber and their plan', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await page.goto('/terms');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu.getByTestId('menu-subscribed')).toHaveText('Subscribed · Premium');
  await expect(menu.getByTestId('menu-user')).not.toBeEmpty();
  await expect(menu.getByTestId('menu-sign-out')).toBeVisible();
  await expect(menu.getByTestId('menu-sign-in')).toHaveCount(0);
});

test('an anonymous visitor gets Sign in; a signed-in one signs out from the menu', async ({ page }) => {
  await page.goto('/terms');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Mobile' }).getByTestId('menu-sign-in')).toHaveAttribute('href', '/register');

  // A new account of its own: signing out revokes every session of the user.
  const email = uniqueEmail('menu');
  await signInNewAccount(page, email);
  await page.goto('/terms');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu.getByTestId('menu-user')).toHaveText(email);
  await expect(menu.getByTestId('menu-subscribe-now')).toBeVisible();
  await menu.getByTestId('menu-sign-out').click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('sign-in')).toBeVisible();
  expect((await (await page.context().request.get('/api/session')).json()).entitlement).toBe('anonymous');
});
