/**
 * Issuing the documents of a payment: the invoice the grant numbers and records in its own
 * transaction (store/documents/invoices.ts), the credit note of a refund, and the PDF of a stored
 * record. The supplier comes from configuration (./supplier.ts), the buyer from the billing
 * details given at checkout, the figures from the amount the order charged.
 */
import { isoDateOf } from '../../lib/dates.ts';
import { buildCreditNote, buildTaxInvoice, recipientOf, type Supplier } from '../../lib/gst/invoice.ts';
import { purchaseLineText } from '../../lib/gst/purchaseLine.ts';
import type { CreditNoteRecord, InvoiceIssue, InvoiceRecord } from '../store/invoices.ts';
import { renderGstPdf } from './pdf.ts';

/** What the grant runs once the invoice's number is known. */
export function invoiceIssue(supplier: Supplier, now: Date): InvoiceIssue {
  const date = isoDateOf(now);
  return {
    date,
    document: ({ number, billing, purchase, amountPaise, paymentId, orderId, plan }) => {
      const recipient = recipientOf(billing);
      // Saved details were checked when they were given; a record that no longer passes is a bug.
      if (!recipient.ok) throw new Error(`billing details of ${billing.uid} are not valid (${recipient.field}): ${recipient.message}`);
      return buildTaxInvoice({ number, date, supplier, recipient: recipient.value, description: purchaseLineText(plan, purchase), amountPaise, payment: { orderId, paymentId } });
    },
  };
}

/** The credit note of a refund of `amountPaise` against a stored invoice. */
export const creditNoteFor =
  (amountPaise: number, date: string, reason: string) =>
  (number: string, invoice: InvoiceRecord) =>
    buildCreditNote({ number, date, invoice: invoice.document, amountPaise, reason });

export const refundDate = (now: Date): string => isoDateOf(now);

/** The PDF of a stored invoice or credit note: drawn from the record, so it never changes. */
export const pdfOf = (record: InvoiceRecord | CreditNoteRecord): Promise<Buffer> => renderGstPdf(record.document);
