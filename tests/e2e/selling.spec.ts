// Issue 21 (phase 1) in Chromium: a visitor compares plans on /pricing and picks one; a signed-in
// user's checkout opens with it; a Basic user who opens a Premium screen is told which plans open
// it; the home ticker answers visitors with names and directions, without an error; a Premium
// subscriber's screens and data API stop at the plan's history depth.
import { expect, test, type ConsoleMessage } from '@playwright/test';
import { signInByApi } from './helpers/auth.ts';
import { violations } from './helpers/axe.ts';
import { hydrated } from './helpers/hydration.ts';

test('a visitor compares the plans on /pricing and chooses Premium', async ({ page }) => {
  test.slow(); // three pages and an axe pass over the comparison
  await page.goto('/');
  await page.getByRole('link', { name: 'See plans' }).click();
  await expect(page).toHaveURL(/\/pricing\/?$/);
  const table = page.getByTestId('plan-table');
  await expect(table).toBeVisible();
  for (const [plan, price] of [['Basic', '₹5,500'], ['Standard', '₹10,000'], ['Premium', '₹15,000'], ['Platinum', '₹25,000']] as const) {
    await expect(table.getByRole('columnheader', { name: new RegExp(`^${plan} ${price}`) })).toBeVisible();
  }
  const row = (name: string | RegExp) => table.getByRole('row', { name });
  await expect(row(/^Before tax/)).toContainText('₹12,711.86 + ₹2,288.14 GST');
  await expect(row(/^History on the screens/)).toContainText('5 years (this year and the 5 before it)');
  await expect(row(/^Users/)).toContainText('5 users (you and 4 colleagues)');
  await expect(row(/^Daily price update/)).toContainText('22 prices (the 5 benchmarks and the Mumbai city-wise sheet)');
  await expect(page.getByRole('heading', { name: 'Can I upgrade in the middle of the year?' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  // The footer's "Pricing" is this page too.
  await expect(page.locator('footer').getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/pricing');

  await table.getByRole('link', { name: 'Choose Premium' }).click();
  await expect(page).toHaveURL(/\/register\?plan=Premium$/);
  await expect(page.getByTestId('chosen-plan')).toContainText('You chose Premium: ₹15,000 a year including 18% GST');
});

test('a signed-in user who chooses a plan lands on checkout with it preselected', async ({ page, context }) => {
  await signInByApi(context.request, 'free@polyindex.test');
  await page.goto('/register?plan=platinum');
  await expect(page).toHaveURL(/\/subscription\?plan=Platinum$/);
  const chosen = page.locator('[data-plan="Platinum"][data-chosen="true"]');
  await expect(chosen).toContainText('Your choice');
  const pay = page.getByRole('button', { name: 'Pay ₹25,000 for Platinum' });
  await hydrated(page, pay);
  await expect(chosen.getByRole('button', { name: 'Pay ₹25,000 for Platinum' })).toBeFocused();
  // Anything else in ?plan= picks nothing.
  await page.goto('/subscription?plan=%3Cscript%3E');
  await expect(page.locator('[data-chosen="true"]')).toHaveCount(0);
});

test('a Basic user opening a Premium screen is told which plans open it', async ({ page, context }) => {
  await signInByApi(context.request, 'basic@polyindex.test');
  await page.goto('/crude/Naphtha');
  await expect(page).toHaveURL(/\/\?locked=feedstock$/);
  const notice = page.locator('[data-locked="feedstock"]');
  await expect(notice).toBeVisible();
  await expect(notice).toHaveText('Feedstock charts (crude, naphtha, olefins, monomers) are in Premium and Platinum. Your plan does not include them. Compare plans');
  await expect(page.locator('[data-locked]:visible')).toHaveCount(1);
  await notice.getByRole('link', { name: 'Compare plans' }).click();
  await expect(page).toHaveURL(/\/pricing\/?$/);
  // A query naming no screen shows nothing, and its text never reaches the page.
  await page.goto('/?locked=%3Cb%3Ehello%3C%2Fb%3E');
  await expect(page.locator('[data-locked]:visible')).toHaveCount(0);
  expect(await page.content()).not.toContain('<b>hello</b>');
});

test('a user without a plan is sent to checkout with the reason', async ({ page, context }) => {
  await signInByApi(context.request, 'free@polyindex.test');
  await page.goto('/compare');
  await expect(page).toHaveURL(/\/subscription\?locked=compare$/);
  await expect(page.getByTestId('locked-notice')).toHaveText('Comparisons and exports (CSV, Excel, images) are in Premium and Platinum. Compare plans');
});

test('the home ticker shows a visitor the key series and their direction, with no error and no figures', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const answer = page.waitForResponse('**/api/home/ticker');
  await page.goto('/');
  expect((await answer).status()).toBe(200);
  const ticker = page.getByTestId('ticker');
  await expect(ticker).toHaveAttribute('data-figures', 'false');
  await expect(ticker).toBeVisible();
  await expect(ticker.getByRole('heading', { name: 'Latest moves' })).toBeVisible();
  await expect(ticker.locator('[data-ticker-list] li').first()).toHaveText(/^Crude oil · Brent [▲▼■] (up|down|unchanged)$/);
  expect(await ticker.locator('[data-ticker-list]').innerText()).not.toMatch(/\d{2,}/);
  await expect(page.getByRole('link', { name: 'See the figures with a plan' })).toHaveAttribute('href', '/pricing');
  expect(errors).toEqual([]);
});

test('a Premium subscriber\'s screens and data API reach back the plan\'s five years', async ({ page, context }) => {
  await signInByApi(context.request, 'premium@polyindex.test');
  const year = Number(new Date().toLocaleDateString('en-CA', { timeZone: 'Asia/Kolkata' }).slice(0, 4));
  await page.goto(`/crude/Naphtha?year=${year - 8}`);
  const options = await page.getByTestId('year-select').locator('option').allInnerTexts();
  expect(options.at(-1)).toBe(String(year - 5));
  await expect(page.getByTestId('year-select')).toHaveValue(String(year));
  await expect(page.getByTestId('history-note')).toHaveText(`${year - 8} is before the years your plan opens; showing ${year}. Your plan opens prices from ${year - 5}. Older years come with Platinum. Compare plans`);
  const refused = await context.request.get(`/api/feedstock?name=Naphtha&year=${year - 6}`);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error).toEqual({ code: 'history_limit', field: 'year', message: `Your plan opens prices from ${year - 5}. Older years come with Platinum.` });
  expect((await context.request.get(`/api/feedstock?name=Naphtha&year=${year - 5}`)).status()).toBe(200);
});
