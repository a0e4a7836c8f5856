/** The checkout's billing-details dialog, filled as a buyer would (issue 21: every payment gets a GST invoice). */
import { expect, type Page } from '@playwright/test';

export interface Billing {
  readonly legalName: string;
  readonly address: string;
  readonly pin: string;
  /** The state's name as the list shows it. */
  readonly state: string;
  readonly gstin: string;
}

/** A registered buyer in Gujarat: another state than the supplier's (Maharashtra), so IGST. */
export const INTER_STATE: Billing = { legalName: 'Karnavati Polymers Private Limited', address: '4th Floor, Shivalik Plaza\nAhmedabad', pin: '380015', state: 'Gujarat', gstin: '24AAACR5055K1ZD' };
/** An unregistered buyer in Maharashtra, the supplier's state: CGST + SGST. */
export const INTRA_STATE: Billing = { legalName: 'Thane Plastics', address: 'Plot 7, Wagle Estate\nThane', pin: '400604', state: 'Maharashtra', gstin: '' };

/** Fills the billing dialog (opened by a pay button) and goes on to the payment. */
export async function giveBilling(page: Page, billing: Billing = INTER_STATE): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Billing details' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Legal name').fill(billing.legalName);
  await dialog.getByLabel('Billing address').fill(billing.address);
  await dialog.getByLabel('PIN code').fill(billing.pin);
  await dialog.getByRole('combobox', { name: /^State/ }).selectOption({ label: billing.state });
  await dialog.getByLabel('GSTIN').fill(billing.gstin);
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
}

/** The API body of the same details. */
export const billingBody = (billing: Billing = INTER_STATE) => ({
  legalName: billing.legalName,
  address: billing.address,
  pin: billing.pin,
  stateCode: billing.state === 'Gujarat' ? '24' : '27',
  gstin: billing.gstin || null,
});
