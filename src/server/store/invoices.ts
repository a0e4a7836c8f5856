/**
 * The `invoices` part of the Store port: a buyer's billing details, the GST tax invoice issued
 * for every paid order, the credit note issued for a refund, and the per-financial-year counters
 * that number them (docs/payments.md, "GST tax invoices"). The documents are frozen as printed
 * (src/lib/gst/invoice.ts's TaxInvoice and CreditNote): the PDF is drawn from the record on
 * demand and never changes.
 */
import { counterKey, documentNumber, financialYearOf, type DocumentSeries } from '../../lib/gst/documentNumbers.ts';
import type { CreditNote, TaxInvoice } from '../../lib/gst/invoice.ts';
import type { IsoDate } from '../../lib/dates.ts';

/** What the buyer gave at checkout (one record per user; the last given wins). */
export interface BillingDetails {
  readonly uid: string;
  readonly legalName: string;
  readonly address: readonly string[];
  readonly pin: string;
  /** The GST state code of the billing address ("27"). */
  readonly stateCode: string;
  /** Null for a buyer without GST registration. */
  readonly gstin: string | null;
  readonly updatedAt: string;
}

/** What a purchase bought (src/lib/proration.ts's quote when the grant ran, with the amount paid). */
export interface PurchaseTerms {
  readonly kind: 'new' | 'renewal' | 'upgrade';
  /** The plan an upgrade replaced. */
  readonly fromPlan: string | null;
  /** An upgrade's credit for the unused days of the plan it replaced: the plan's price − the amount paid. */
  readonly creditPaise: number;
  /** The term bought (ISO instants). */
  readonly startsAt: string;
  readonly endsAt: string;
}

export interface InvoiceRecord {
  /** The number with "-" for "/" ("PI-26-27-00001"): a document id and the PDF's file name. */
  readonly id: string;
  /** "PI/26-27/00001". */
  readonly number: string;
  /** "2026-27". */
  readonly fy: string;
  readonly sequence: number;
  readonly uid: string;
  readonly orderId: string;
  readonly paymentId: string;
  readonly plan: string;
  readonly purchase: PurchaseTerms;
  /** The document as printed. */
  readonly document: TaxInvoice;
  readonly createdAt: string;
}

export interface CreditNoteRecord {
  readonly id: string;
  readonly number: string;
  readonly fy: string;
  readonly sequence: number;
  readonly uid: string;
  readonly invoiceNumber: string;
  /** The gateway's refund id: one credit note per refund. */
  readonly refundId: string;
  readonly document: CreditNote;
  readonly createdAt: string;
}

/** The last sequence handed out in one series and financial year. */
export interface DocumentCounter {
  /** "invoice-2026-27", "credit-note-2026-27". */
  readonly key: string;
  readonly last: number;
}

/** The id a document number is stored under (Firestore ids cannot hold "/"). */
export const documentId = (number: string): string => number.replaceAll('/', '-');

/** The counter of a series in the financial year of `date` (an IST date). */
export function counterOf(series: DocumentSeries, date: IsoDate): { key: string; fy: string; numberOf: (sequence: number) => string } {
  const fy = financialYearOf(date);
  return { key: counterKey(series, fy), fy: fy.label, numberOf: (sequence) => documentNumber(series, fy, sequence) };
}

/** What the grant needs to issue the order's invoice in its own transaction. */
export interface InvoiceIssue {
  /** The IST date of issue. */
  readonly date: IsoDate;
  /**
   * The document once its number is known, for the buyer's billing details and the term the
   * grant bought (pure: Firestore may run the transaction again).
   */
  readonly document: (facts: { readonly number: string; readonly billing: BillingDetails; readonly purchase: PurchaseTerms; readonly amountPaise: number; readonly paymentId: string; readonly orderId: string; readonly plan: string }) => TaxInvoice;
}

export interface CreditNoteInput {
  readonly refundId: string;
  readonly paymentId: string;
  /** GST-inclusive amount refunded. */
  readonly amountPaise: number;
  readonly date: IsoDate;
  readonly now: Date;
  /** The credit note once its number is known and its invoice found (pure). */
  readonly document: (number: string, invoice: InvoiceRecord) => CreditNote;
}

export type CreditNoteResult =
  | { readonly kind: 'issued' | 'already_issued'; readonly note: CreditNoteRecord }
  | { readonly kind: 'no_invoice' };

export interface InvoiceStore {
  saveBillingDetails(details: BillingDetails): Promise<void>;
  findBillingDetails(uid: string): Promise<BillingDetails | null>;
  /** One user's invoices, newest first. */
  listInvoices(uid: string): Promise<InvoiceRecord[]>;
  /** By id ("PI-26-27-00001"). */
  findInvoice(id: string): Promise<InvoiceRecord | null>;
  findInvoiceByOrder(orderId: string): Promise<InvoiceRecord | null>;
  /** Numbers and records a credit note for a refund of the payment's invoice; once per refund. */
  issueCreditNote(input: CreditNoteInput): Promise<CreditNoteResult>;
  listCreditNotes(uid: string): Promise<CreditNoteRecord[]>;
  findCreditNote(id: string): Promise<CreditNoteRecord | null>;
}
