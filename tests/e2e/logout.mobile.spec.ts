import { expect, test } from '@playwright/test';
import { signInAs } from './helpers/auth.ts';

test('a failed sign-out shows "Something went wrong" on mobile and keeps the session', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await page.goto('/');
  // The network fails, not our code: the island must say so instead of pretending.
  await page.route('**/api/auth/logout', (route) => route.abort('failed'));
  await page.getByTestId('sign-out').click();
  await expect(page.getByRole('alert')).toHaveText('Something went wrong');
  await expect(page).toHaveURL(/\/$/);
  expect((await (await context.request.get('/api/session')).json()).entitlement).toBe('full');
});
