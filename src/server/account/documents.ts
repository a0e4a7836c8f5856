/**
 * The buyer's GST documents for /account: invoices and credit notes, newest first, and when the
 * current term began (the latest invoice whose term has started).
 */
import type { CreditNoteRecord, InvoiceRecord } from '../store/invoices.ts';
import { paymentsRuntime } from '../payments/index.ts';

export interface AccountDocuments {
  readonly invoices: readonly InvoiceRecord[];
  readonly creditNotes: readonly CreditNoteRecord[];
  readonly termStartedAt: string | null;
}

export async function accountDocuments(uid: string, now: Date): Promise<AccountDocuments> {
  const store = (await paymentsRuntime()).store;
  const [invoices, creditNotes] = await Promise.all([store.listInvoices(uid), store.listCreditNotes(uid)]);
  const current = invoices.find((invoice) => Date.parse(invoice.purchase.startsAt) <= now.getTime() && Date.parse(invoice.purchase.endsAt) > now.getTime());
  return { invoices, creditNotes, termStartedAt: current?.purchase.startsAt ?? null };
}
