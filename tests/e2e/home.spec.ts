// The home page in Chromium: the Naphtha teaser without figures for everyone, the ticker (figures
// for subscribers, names and directions for everyone else), the partner carousel, and the banner
// carousel's arrows, dots, pause and auto-advance (which stops on hover and for reduced motion).
import { expect, test } from '@playwright/test';
import { signInAs } from './helpers/auth.ts';
import { violations } from './helpers/axe.ts';

test('an anonymous visitor sees the Naphtha trend and the ticker\'s directions, without figures', async ({ page }) => {
  test.slow(); // axe over the whole home page (two carousels, the ticker, the headlines) took 20–30 s on a busy machine
  await page.goto('/');
  const teaser = page.getByTestId('naphtha-teaser');
  await expect(teaser.locator('polyline')).toHaveCount(1);
  await expect(teaser).toHaveAttribute('data-direction', /^(up|down|flat)$/);
  await expect(teaser).toContainText(/Naphtha · Japan has been (trending up|trending down|moving sideways) over the last three months/);
  // No price anywhere in the teaser: no number of two or more digits.
  expect(await teaser.innerText()).not.toMatch(/\d{2,}/);
  const answer = await page.request.get('/api/home/teaser');
  expect(answer.headers()['cache-control']).toBe('public, max-age=300');
  expect(JSON.stringify(await answer.json())).not.toMatch(/\d+\.\d/);
  const ticker = await page.request.get('/api/home/ticker');
  expect(ticker.status()).toBe(200);
  expect(JSON.stringify(await ticker.json())).not.toMatch(/"(value|change|changePct|unit)"/);
  await expect(page.getByTestId('ticker')).toHaveAttribute('data-figures', 'false');
  expect(await page.getByTestId('ticker').locator('[data-ticker-list]').innerText()).not.toMatch(/\d/);
  // The latest headlines: a server island the access policy names as public, filled for everyone.
  await expect(page.getByTestId('post-list').getByRole('listitem')).toHaveCount(6);
  await expect(page.getByText('Loading the latest headlines…')).toHaveCount(0);
  await expect(page.getByTestId('partner-carousel').getByRole('img')).toHaveCount(6);
  await expect(page.getByTestId('banner-carousel')).toHaveAttribute('data-ready', 'true');
  expect(await violations(page)).toEqual([]);
});

test('a subscriber sees the ticker of key series with latest value and change', async ({ page, context }) => {
  await signInAs(context, 'premium@polyindex.test');
  await page.goto('/');
  const ticker = page.getByTestId('ticker');
  await expect(ticker).toHaveAttribute('data-figures', 'true');
  // The nine key series, then up to four producers' latest list-price revisions.
  await expect.poll(() => ticker.locator('[data-ticker-list] li').count()).toBeGreaterThanOrEqual(9);
  expect(await ticker.locator('[data-ticker-list] li').count()).toBeLessThanOrEqual(13);
  await expect(page.getByRole('link', { name: 'See the figures with a plan' })).toBeHidden();
  await expect(ticker.locator('[data-ticker-list] li').first()).toContainText(/Crude oil · Brent \d+\.\d{2} US\$\/bbl \(ICE Brent futures\) [▲▼■—]/);
  await ticker.getByRole('button', { name: 'Pause the price ticker' }).click();
  await expect(ticker).toHaveAttribute('data-paused', 'true');
});

test('a Basic subscriber, whose plan has no data screens, gets the ticker without figures', async ({ page, context }) => {
  await signInAs(context, 'basic@polyindex.test');
  await page.goto('/');
  await expect(page.getByTestId('naphtha-teaser').locator('polyline')).toHaveCount(1);
  const answer = await context.request.get('/api/home/ticker');
  expect(answer.status()).toBe(200);
  expect((await answer.json()).figures).toBe(false);
  await expect(page.getByTestId('ticker')).toHaveAttribute('data-figures', 'false');
  await expect(page.getByRole('link', { name: 'See the figures with a plan' })).toBeVisible();
});

test('the banner carousel: arrows and dots move it, it advances by itself, hover and Pause stop it', async ({ page }) => {
  test.slow(); // waits out a whole auto-advance interval (AUTO_ADVANCE_MS) besides the clicks
  await page.goto('/');
  const carousel = page.getByTestId('banner-carousel');
  await expect(carousel).toHaveAttribute('data-ready', 'true');
  // Brought up to date from the store (admin-banners.spec.ts may be adding one meanwhile): from
  // here on this page's slides stay as they are.
  await expect(carousel).toHaveAttribute('data-live', 'true');
  const count = Number(await carousel.getAttribute('data-count'));
  expect(count).toBeGreaterThan(1);
  await expect(carousel.locator('.dot')).toHaveCount(count);
  // The pointer on the carousel holds it still, at once, while the controls are tried.
  await carousel.hover();
  await expect(carousel).toHaveAttribute('data-running', 'false');
  const start = Number(await carousel.getAttribute('data-index'));
  const at = (offset: number) => String((((start + offset) % count) + count) % count);
  await expect(carousel.locator('.dot').nth(start)).toHaveAttribute('aria-current', 'true');
  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expect(carousel).toHaveAttribute('data-index', at(1));
  await expect(carousel.locator('.dot').nth(Number(at(1)))).toHaveAttribute('aria-current', 'true');
  // Two clicks in a row, while the first smooth move is still under way: each one counts.
  await carousel.getByRole('button', { name: 'Previous slide' }).click();
  await carousel.getByRole('button', { name: 'Previous slide' }).click();
  await expect(carousel).toHaveAttribute('data-index', at(-1));
  await carousel.getByRole('button', { name: `Show slide 1 of ${count}` }).click();
  await expect(carousel).toHaveAttribute('data-index', '0');
  await expect(carousel.locator('.dot').first()).toHaveAttribute('aria-current', 'true');
  await expect(carousel).toHaveAttribute('data-running', 'false');

  // Focus and pointer away: it runs on its own (a whole interval later: AUTO_ADVANCE_MS).
  await page.locator('h1').click();
  await page.mouse.move(0, 0);
  await expect(carousel).toHaveAttribute('data-running', 'true');
  await expect(carousel).not.toHaveAttribute('data-index', '0');

  // Pause (by keyboard) stops it, and it stays stopped once the focus has gone.
  await carousel.getByRole('button', { name: 'Pause' }).focus();
  await carousel.getByRole('button', { name: 'Pause' }).press('Enter');
  await expect(carousel).toHaveAttribute('data-paused', 'true');
  await expect(carousel.getByRole('button', { name: 'Play' })).toHaveAttribute('aria-pressed', 'true');
  await page.locator('h1').click();
  await expect(carousel).toHaveAttribute('data-running', 'false');
});

test('with reduced motion the carousel does not advance by itself', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/');
  const carousel = page.getByTestId('banner-carousel');
  await expect(carousel).toHaveAttribute('data-ready', 'true');
  await expect(carousel).toHaveAttribute('data-running', 'false');
  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expect(carousel).toHaveAttribute('data-index', '1');
  await context.close();
});
