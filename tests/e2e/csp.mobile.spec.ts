/**
 * The Content-Security-Policy on a phone (the `mobile` project): the slide-in menu's script, its
 * signed-in state and the phone widths of pictures run under the same policy as on a desktop,
 * with no violation. The desktop table is tests/e2e/csp.spec.ts.
 */
import { expect, type Page } from '@playwright/test';
import { feedstocks } from '../../src/lib/catalog.ts';
import { cspTests, type CspCase } from './helpers/csp.ts';

/** Opens the slide-in menu and a section of it, as a person on a phone would. */
const useMenu = async (page: Page) => {
  const toggle = page.getByRole('button', { name: 'Open menu' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const menu = page.getByRole('navigation', { name: 'Mobile' });
  await expect(menu).toBeVisible();
  await menu.getByText('Feedstock', { exact: true }).click();
  await expect(menu.getByRole('link', { name: 'Naphtha' })).toBeVisible();
};

const PAGES: readonly CspCase[] = [
  { family: 'phone: public', path: '/', who: 'anonymous', delivery: 'meta', use: useMenu },
  { family: 'phone: public, signed in', path: '/terms', who: 'premium@polyindex.test', delivery: 'meta', use: useMenu },
  { family: 'phone: data', path: `/crude/${feedstocks[0]!.slug}`, who: 'premium@polyindex.test', delivery: 'header', use: useMenu },
  { family: 'phone: alerts', path: '/alerts', who: 'premium@polyindex.test', delivery: 'header', use: useMenu },
  {
    family: 'phone: limited',
    path: '/vip-delegations/2018/plastindia-gandhinagar',
    who: 'free@polyindex.test',
    delivery: 'header',
    use: async (page) => {
      const photo = page.locator('.photos img').first();
      await photo.scrollIntoViewIfNeeded();
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 20_000 }).toBe(true);
    },
  },
];

cspTests(PAGES);
