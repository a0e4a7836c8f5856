import { expect, test } from '@playwright/test';
import { signInAs } from './helpers/auth.ts';

test('a failed sign-out is only logged on desktop', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/');
  await page.route('**/api/auth/logout', (route) => route.abort('failed'));
  await page.getByTestId('sign-out').click();
  await expect.poll(() => errors.some((e) => e.includes('Sign-out failed'))).toBe(true);
  await expect(page.locator('.toast')).toHaveCount(0);
});
