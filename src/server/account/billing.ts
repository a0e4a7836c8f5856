/**
 * The saved billing details as the checkout form shows them (the address one line per line),
 * for the pages that render the checkout island.
 */
import type { BillingForm } from '../../lib/checkout.ts';
import { paymentsRuntime } from '../payments/index.ts';

export async function billingFormOf(uid: string): Promise<BillingForm | null> {
  const saved = await (await paymentsRuntime()).store.findBillingDetails(uid);
  return saved ? { legalName: saved.legalName, address: saved.address.join('\n'), pin: saved.pin, stateCode: saved.stateCode, gstin: saved.gstin ?? '' } : null;
}
