/**
 * The buyer's receipt after a successful payment, and the credit note after a refund: one log
 * line each, and an e-mail to the buyer through the mail module (SMTP, or the outbox in the
 * embedded default) with the GST document attached as PDF. A phone-only account has no
 * address: the log line is all there is (the document is on /account either way).
 */
import { toDisplayDate } from '../../lib/dates.ts';
import { findPlan } from '../../lib/plans.ts';
import { formatPaise } from '../../lib/numbers.ts';
import { pdfFileName } from '../invoices/pdf.ts';
import { pdfOf } from '../invoices/issue.ts';
import { renderMail, sendMail } from '../mail/index.ts';
import type { CreditNoteRecord, InvoiceRecord } from '../store/invoices.ts';
import type { OrderRecord } from '../store/payments.ts';
import type { UserRecord } from '../store/users.ts';

export interface Receipt {
  readonly user: UserRecord;
  readonly order: OrderRecord;
  /** The GST tax invoice of the payment (attached as PDF); null when none was issued. */
  readonly invoice?: InvoiceRecord | null | undefined;
}

const validUntil = (expiresAt: string | null | undefined): string =>
  expiresAt ? new Date(expiresAt).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' }) : '-';

export async function sendReceipt({ user, order, invoice = null }: Receipt): Promise<void> {
  console.info(
    `[receipt] to=${user.email ?? user.phone ?? user.uid} plan=${order.plan} amount=${formatPaise(order.amount)} ` +
      `order=${order.id} payment=${order.paymentId ?? '-'} valid-until=${user.expiresAt ?? '-'} invoice=${invoice?.number ?? '-'}`,
  );
  if (!user.email) return;
  const plan = findPlan(order.plan)?.name ?? order.plan;
  const mail = renderMail({
    subject: `Your PolyIndex receipt: ${plan} plan`,
    heading: user.displayName ? `Thank you, ${user.displayName}` : 'Thank you for subscribing',
    blocks: [
      { paragraph: `Your payment was received and your ${plan} plan is active.` },
      {
        rows: [
          ['Plan', plan],
          ['Amount paid', formatPaise(order.amount)],
          ['Valid until', validUntil(user.expiresAt)],
          ['Order', order.id],
          ['Payment', order.paymentId ?? '-'],
          ['Receipt no.', order.receipt],
          ...(invoice ? ([['GST invoice', `${invoice.number} of ${toDisplayDate(invoice.document.date)}`]] as [string, string][]) : []),
        ],
      },
      {
        paragraph: invoice
          ? 'Your GST tax invoice is attached as a PDF; your account page lists every invoice. For any question, reply to this e-mail.'
          : 'Keep this e-mail for your records. For any question, reply to this e-mail.',
      },
    ],
    footer: 'You receive this e-mail because you bought a PolyIndex plan.',
  });
  const attachments = invoice ? [{ filename: pdfFileName(invoice.document), content: await pdfOf(invoice), contentType: 'application/pdf' }] : undefined;
  await sendMail({ ...mail, to: user.email, attachments });
}

/** The credit note of a refund, mailed to the buyer with its PDF (GST rules: the recipient gets the note). */
export async function sendCreditNote({ user, note }: { readonly user: UserRecord; readonly note: CreditNoteRecord }): Promise<void> {
  const refunded = formatPaise(note.document.tax.totalPaise);
  console.info(`[credit-note] to=${user.email ?? user.phone ?? user.uid} note=${note.document.number} against=${note.invoiceNumber} refund=${note.refundId} amount=${refunded}`);
  if (!user.email) return;
  const mail = renderMail({
    subject: `Your PolyIndex credit note ${note.document.number}`,
    heading: 'Your refund and its credit note',
    blocks: [
      { paragraph: `A refund of ${refunded} was made to you. The GST credit note for it is attached as a PDF; your account page lists it beside your invoices.` },
      {
        rows: [
          ['Credit note', `${note.document.number} of ${toDisplayDate(note.document.date)}`],
          ['Against invoice', `${note.document.against.number} of ${toDisplayDate(note.document.against.date)}`],
          ['Amount refunded (incl. GST)', refunded],
          ['Reason', note.document.reason],
          ['Refund', note.refundId],
        ],
      },
      { paragraph: 'The refund reaches your account as your bank credits it. For any question, reply to this e-mail.' },
    ],
    footer: 'You receive this e-mail because a PolyIndex payment of yours was refunded.',
  });
  await sendMail({ ...mail, to: user.email, attachments: [{ filename: pdfFileName(note.document), content: await pdfOf(note), contentType: 'application/pdf' }] });
}
