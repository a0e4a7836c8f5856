/**
 * /alerts as a person uses it (issue 22): the price picker by keyboard (WAI-ARIA APG combobox
 * with a multi-select listbox), the preview of the next update following the choice before it is
 * saved, the alert's threshold beside the price's latest value, checkboxes beside their labels.
 * A new Premium account of its own (its own settings, nothing shared with other specs).
 */
import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { premiumUser } from './helpers/compare.ts';
import { hydrated } from './helpers/hydration.ts';

/** /alerts of a new Premium account, in a context of its own. */
async function alertsPage(browser: Browser, prefix: string, options: BrowserContextOptions = {}): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context } = await premiumUser(browser, prefix, options);
  const page = await context.newPage();
  await page.goto('/alerts');
  return { page, close: () => context.close() };
}

test('the price picker works from the keyboard and the preview follows the choice', async ({ browser }) => {
  const { page, close } = await alertsPage(browser, 'alerts-keys');
  test.slow();
  const picker = page.getByRole('combobox', { name: 'Prices in the update' });
  await hydrated(page, picker);
  const listbox = page.getByRole('listbox', { name: 'Prices in the update' });
  await expect(picker).toHaveAttribute('aria-expanded', 'false');
  // The list it controls is there, hidden until it opens.
  await expect(page.locator(`#${await picker.getAttribute('aria-controls')}`)).toBeHidden();

  await picker.focus();
  await page.keyboard.type('raffia ahm');
  await expect(picker).toHaveAttribute('aria-expanded', 'true');
  await expect(listbox).toHaveAttribute('aria-multiselectable', 'true');
  await expect(listbox).toHaveAttribute('id', (await picker.getAttribute('aria-controls'))!);
  // Grouped by family: a group per family, named.
  await expect(listbox.getByRole('group', { name: 'City-wise: Ahmedabad' }).getByRole('option')).toHaveText([/PP Raffia · Ahmedabad/, /HDPE Raffia · Ahmedabad/]);
  // The first match is active; the arrow moves to the next.
  const active = async () => page.locator(`#${await picker.getAttribute('aria-activedescendant')}`);
  await expect(await active()).toContainText('PP Raffia · Ahmedabad');
  await page.keyboard.press('ArrowDown');
  await expect(await active()).toContainText('HDPE Raffia · Ahmedabad');
  await page.keyboard.press('Enter');
  await expect(listbox.getByRole('option', { name: /HDPE Raffia · Ahmedabad/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('chosen-prices')).toContainText('HDPE Raffia · Ahmedabad');
  // Enter again takes it out; once more puts it back. Escape closes the list.
  await page.keyboard.press('Enter');
  await expect(listbox.getByRole('option', { name: /HDPE Raffia · Ahmedabad/ })).toHaveAttribute('aria-selected', 'false');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(picker).toHaveAttribute('aria-expanded', 'false');

  // The preview is of the choice on screen, not yet saved.
  // The update as the phone shows it: the price's name in bold, then its price.
  await expect(page.getByTestId('preview-message').locator('strong', { hasText: 'HDPE Raffia Ahmedabad' })).toBeVisible();
  await expect(page.getByTestId('daily-preview')).toContainText(/Preview of the next update: (today|tomorrow) \(/);
  // A price taken out by its Remove button leaves the preview too.
  await page.getByTestId('chosen-prices').getByRole('button', { name: 'Remove HDPE Raffia · Ahmedabad' }).click();
  await expect(page.getByTestId('preview-message')).not.toContainText('HDPE Raffia Ahmedabad');
  await close();
});

test('the alert form shows the latest price and unit beside the threshold', async ({ browser }) => {
  const { page, close } = await alertsPage(browser, 'alerts-price');
  const current = page.getByTestId('current-price');
  await hydrated(page, current);
  await expect(current).toContainText(/^Now US\$[\d,]+\.\d{2}\/bbl \(\d{1,2}(st|nd|rd|th) [A-Z][a-z]{2} \d{4}\)$/);
  const va = (await (await page.request.get('/api/alerts/price?series=feedstock.va.china')).json()) as { text: string };
  await page.getByRole('combobox', { name: 'Price', exact: true }).selectOption('feedstock.va.china');
  await expect(current).toContainText(`Now ${va.text}`);
  await expect(page.getByLabel(/^Value/)).toHaveAccessibleDescription(new RegExp(`Now ${va.text.replace(/[.$]/g, '\\$&')}`));
  await close();
});

test('on a phone, checkboxes sit beside their labels and nothing is wider than the screen', async ({ browser }) => {
  const { page, close } = await alertsPage(browser, 'alerts-phone', { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  try {
    for (const name of ['By e-mail', /I agree to receive/, 'Send me the weekly forecast digest']) {
      const box = (await page.getByRole('checkbox', { name, exact: typeof name === 'string' }).boundingBox())!;
      const label = (await page.getByText(name, { exact: typeof name === 'string' }).boundingBox())!;
      expect(box.width).toBeLessThan(24);
      expect(label.x - (box.x + box.width)).toBeLessThan(16);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  } finally {
    await close();
  }
});
