/**
 * Billing details, invoices, credit notes and their counters (../invoices.ts), written once over
 * the document driver. A document's number is taken from its series' counter in the transaction
 * that records it: the counter is read, the document created under its new number (a create: a
 * number already there fails the commit, and Firestore runs the transaction again) and the
 * counter written. Numbers are therefore unique and consecutive across instances and restarts.
 */
import type { DocumentSeries } from '../../../lib/gst/documentNumbers.ts';
import { counterOf, documentId, type BillingDetails, type CreditNoteRecord, type InvoiceIssue, type InvoiceRecord, type InvoiceStore, type PurchaseTerms } from '../invoices.ts';
import type { OrderRecord } from '../payments.ts';
import { byFields, type DocumentDriver, type DocumentTransaction } from './driver.ts';

/** The next number of a series in the financial year of `date`; the counter's write is held with the transaction's. */
async function takeNumber(tx: DocumentTransaction, series: DocumentSeries, date: string) {
  const counter = counterOf(series, date);
  const sequence = ((await tx.get('documentCounters', counter.key))?.last ?? 0) + 1;
  tx.put('documentCounters', { key: counter.key, last: sequence });
  const number = counter.numberOf(sequence);
  return { number, id: documentId(number), fy: counter.fy, sequence };
}

/** Issues the invoice of a paid order inside the grant's transaction (documents/payments.ts). */
export async function issueInvoiceIn(tx: DocumentTransaction, issue: InvoiceIssue, billing: BillingDetails, purchase: PurchaseTerms, order: OrderRecord, paymentId: string, now: Date): Promise<InvoiceRecord> {
  const { number, id, fy, sequence } = await takeNumber(tx, 'invoice', issue.date);
  const invoice: InvoiceRecord = {
    id,
    number,
    fy,
    sequence,
    uid: order.uid,
    orderId: order.id,
    paymentId,
    plan: order.plan,
    purchase,
    document: issue.document({ number, billing, purchase, amountPaise: order.amount, paymentId, orderId: order.id, plan: order.plan }),
    createdAt: now.toISOString(),
  };
  tx.create('invoices', invoice);
  return invoice;
}

const newestFirst = <R extends { createdAt: string; sequence: number }>(records: R[]): R[] => records.toSorted((a, b) => byFields<R>('createdAt', 'sequence')(b, a));

export function createInvoiceStore(docs: DocumentDriver): InvoiceStore {
  return {
    saveBillingDetails: (details) =>
      docs.transact(async (tx) => {
        tx.put('billingDetails', details);
      }),

    findBillingDetails: async (uid) => (uid ? docs.get('billingDetails', uid) : null),

    listInvoices: async (uid) => (uid ? newestFirst(await docs.list('invoices', [{ index: 'uid', value: uid }])) : []),

    findInvoice: async (id) => (id ? docs.get('invoices', id) : null),

    findInvoiceByOrder: async (orderId) => (orderId ? ((await docs.list('invoices', [{ index: 'orderId', value: orderId }]))[0] ?? null) : null),

    issueCreditNote: ({ refundId, paymentId, amountPaise, date, now, document }) =>
      docs.transact(async (tx) => {
        const existing = (await tx.list('creditNotes', [{ index: 'refundId', value: refundId }]))[0];
        if (existing) return { kind: 'already_issued' as const, note: existing };
        const invoice = (await tx.list('invoices', [{ index: 'paymentId', value: paymentId }]))[0];
        if (!invoice) return { kind: 'no_invoice' as const };
        if (amountPaise <= 0) throw new RangeError(`refund ${refundId}: nothing refunded`);
        const { number, id, fy, sequence } = await takeNumber(tx, 'credit-note', date);
        const note: CreditNoteRecord = { id, number, fy, sequence, uid: invoice.uid, invoiceNumber: invoice.number, refundId, document: document(number, invoice), createdAt: now.toISOString() };
        tx.create('creditNotes', note);
        return { kind: 'issued' as const, note };
      }),

    listCreditNotes: async (uid) => (uid ? newestFirst(await docs.list('creditNotes', [{ index: 'uid', value: uid }])) : []),

    findCreditNote: async (id) => (id ? docs.get('creditNotes', id) : null),
  };
}
