/**
 * Issue 21 in Chromium, shared by the desktop and phone specs: buying with billing details,
 * /account's plan, invoices and upgrade, and the invoice PDF as the buyer downloads it.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page } from '@playwright/test';
import { extractText } from 'unpdf';
import { ensureAccount, uniqueEmail } from './auth.ts';
import { giveBilling, INTER_STATE, INTRA_STATE, type Billing } from './billing.ts';
import { DEMO_PASSWORD } from '../env.ts';

/** The sandbox dialog's Pay, after the billing dialog; the amount it shows is checked first. */
export async function paySandbox(page: Page, amountText: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Sandbox checkout' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(amountText);
  await dialog.getByRole('button', { name: 'Pay' }).click();
}

/** The text of the PDF a link on /account downloads, and its file name. */
export async function downloadedPdf(page: Page, link: ReturnType<Page['getByRole']>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return { name: download.suggestedFilename(), text };
}

/** A visitor compares plans on /pricing, picks Premium, signs up and pays with a GSTIN of another state. */
export async function visitorBuysPremium(page: Page, prefix: string): Promise<void> {
  await page.goto('/pricing');
  const choose = page.getByRole('link', { name: 'Choose Premium' }).filter({ visible: true }).first();
  await choose.click();
  await expect(page).toHaveURL(/\/register\?plan=Premium$/);
  const email = uniqueEmail(prefix);
  await ensureAccount(page.context().request, email);
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/subscription\?plan=Premium$/);
  await buy(page, 'Premium', '₹15,000', INTER_STATE);
}

/** Pays for `plan` on /subscription with these billing details. */
export async function buy(page: Page, plan: string, amountText: string, billing: Billing): Promise<void> {
  const pay = page.locator(`[data-plan="${plan}"]`).getByRole('button', { name: `Pay ${amountText} for ${plan}` });
  await expect(pay).toBeEnabled();
  await pay.click();
  await giveBilling(page, billing);
  await paySandbox(page, amountText);
  await expect(page).toHaveURL(/\/$/);
}

/** /account lists the invoice of the last payment; its PDF carries the tax lines expected. */
export async function invoiceOnAccount(page: Page, { taxes, absent, amount }: { taxes: RegExp[]; absent: RegExp[]; amount: string }): Promise<string> {
  await page.goto('/account');
  const table = page.getByTestId('invoices');
  const row = table.getByRole('listitem').filter({ hasText: amount }).first();
  await expect(row).toBeVisible();
  const number = (await row.getByTestId('document-number').textContent())!.trim();
  expect(number).toMatch(/^PI\/\d{2}-\d{2}\/\d{5}$/);
  const { name, text } = await downloadedPdf(page, row.getByRole('link', { name: /^Download/ }));
  expect(name).toBe(`${number.replaceAll('/', '-')}.pdf`);
  expect(text).toContain('TAX INVOICE');
  expect(text).toContain(number);
  for (const tax of taxes) expect(text).toMatch(tax);
  for (const tax of absent) expect(text).not.toMatch(tax);
  return text;
}

export { INTER_STATE, INTRA_STATE };
