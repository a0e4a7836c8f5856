/**
 * The InvoiceStore contract and the grant's invoice: billing details, invoice numbers unique and
 * consecutive within a financial year (April–March, by the IST date) across concurrent grants and
 * two handles on one database, one invoice per order, credit notes once per refund, and transfer.
 */
import { describe, expect, it } from 'vitest';
import { supplierOf, type Supplier } from '../../src/lib/gst/invoice.ts';
import { creditNoteFor, invoiceIssue } from '../../src/server/invoices/issue.ts';
import type { BillingDetails, CreditNoteRecord, DocumentCounter, InvoiceRecord } from '../../src/server/store/invoices.ts';
import type { Store } from '../../src/server/store/index.ts';
import type { UserRecord } from '../../src/server/store/users.ts';
import { attempt, backends, storePerTest, twinTest, withTwins } from './backends.ts';

// 10:00 IST on 22 Nov 2026: FY 2026-27.
const NOW = new Date('2026-11-22T04:30:00.000Z');
const DAY_MS = 86_400_000;

const SUPPLIER: Supplier = (() => {
  const checked = supplierOf({ legalName: 'PolyIndex Market Data Private Limited', address: '402 Trade Centre | Mumbai 400051', gstin: '27AABCP1234F1ZU' });
  if (!checked.ok) throw new Error(checked.message);
  return checked.value;
})();

const user = (uid: string, extra: Partial<UserRecord> = {}): UserRecord => ({
  uid, displayName: uid, email: `${uid}@example.test`, phone: null, photoURL: null, role: 'user', subscribed: false, createdAt: '01-01-2026', ...extra,
});
const billing = (uid: string, extra: Partial<BillingDetails> = {}): BillingDetails => ({
  uid, legalName: `${uid} Polymers LLP`, address: ['12 Ring Road', 'Surat'], pin: '395002', stateCode: '24', gstin: null, updatedAt: NOW.toISOString(), ...extra,
});

/** A buyer with billing details and a created Premium order. */
async function buyer(store: Store, uid: string, orderId: string, details: Partial<BillingDetails> = {}): Promise<void> {
  await store.createUser(user(uid));
  await store.saveBillingDetails(billing(uid, details));
  await store.createOrder({ id: orderId, uid, plan: 'Premium', amount: 1_500_000, currency: 'INR', receipt: `r_${orderId}` }, NOW);
}

const pay = (store: Store, orderId: string, now = NOW, event?: { id: string; type: string }) =>
  store.grantOrder({ orderId, paymentId: `pay_${orderId}`, signature: null, now, durationDays: 365, event, invoice: invoiceIssue(SUPPLIER, now) });

const invoiceOf = (result: Awaited<ReturnType<Store['grantOrder']>>): InvoiceRecord => {
  if (result.kind !== 'granted' || !result.invoice) throw new Error(`no invoice: ${result.kind}`);
  return result.invoice;
};

describe.each(backends)('invoice store on $name', (backend) => {
  const store = storePerTest(backend);

  it('keeps one set of billing details per user, the last given', async () => {
    expect(await store().findBillingDetails('u1')).toBeNull();
    await store().saveBillingDetails(billing('u1'));
    await store().saveBillingDetails(billing('u1', { legalName: 'Renamed Polymers LLP', gstin: '29AABCT1332L1ZA' }));
    expect(await store().findBillingDetails('u1')).toEqual(billing('u1', { legalName: 'Renamed Polymers LLP', gstin: '29AABCT1332L1ZA' }));
    expect(await store().findBillingDetails('')).toBeNull();
  });

  it('a grant issues the order\'s invoice with the next number of the financial year, once', async () => {
    await buyer(store(), 'u1', 'order_1');
    await buyer(store(), 'u2', 'order_2', { stateCode: '27', gstin: '27AAACR5055K1Z7' });
    const first = invoiceOf(await pay(store(), 'order_1'));
    expect(first).toMatchObject({ id: 'PI-26-27-00001', number: 'PI/26-27/00001', fy: '2026-27', sequence: 1, uid: 'u1', orderId: 'order_1', paymentId: 'pay_order_1', plan: 'Premium' });
    expect(first.purchase).toEqual({ kind: 'new', fromPlan: null, creditPaise: 0, startsAt: NOW.toISOString(), endsAt: new Date(NOW.getTime() + 365 * DAY_MS).toISOString() });
    // Gujarat buyer of a Maharashtra supplier: IGST.
    expect(first.document.tax.lines.map((l) => [l.tax, l.amountPaise])).toEqual([['IGST', 228_814]]);
    expect(first.document.recipient).toMatchObject({ legalName: 'u1 Polymers LLP', gstin: null, pin: '395002' });

    const second = invoiceOf(await pay(store(), 'order_2'));
    expect(second.number).toBe('PI/26-27/00002');
    expect(second.document.tax.lines.map((l) => [l.tax, l.amountPaise])).toEqual([['CGST', 114_407], ['SGST', 114_407]]);

    // A replayed verify or the webhook after it: no second invoice, no number used up.
    expect((await pay(store(), 'order_1')).kind).toBe('already_paid');
    expect(await store().findInvoiceByOrder('order_1')).toEqual(first);
    expect(await store().findInvoice('PI-26-27-00001')).toEqual(first);
    expect(await store().listInvoices('u1')).toEqual([first]);
    expect(await store().findInvoice('PI-26-27-00003')).toBeNull();
    expect(await store().findInvoice('')).toBeNull();
  });

  it('a buyer without billing details is granted the plan and no number is used', async () => {
    await store().createUser(user('u3'));
    await store().createOrder({ id: 'order_3', uid: 'u3', plan: 'Premium', amount: 1_500_000, currency: 'INR', receipt: 'r3' }, NOW);
    const result = await pay(store(), 'order_3');
    expect(result.kind === 'granted' && result.invoice).toBe(null);
    await buyer(store(), 'u4', 'order_4');
    expect(invoiceOf(await pay(store(), 'order_4')).number).toBe('PI/26-27/00001');
  });

  it('numbers restart on 1 April, by the Indian date', async () => {
    const lastMinute = new Date('2027-03-31T18:29:59.000Z'); // 23:59:59 IST, 31 March
    const newYear = new Date('2027-03-31T18:30:00.000Z'); // 00:00 IST, 1 April
    for (const id of ['a', 'b', 'c']) await buyer(store(), `u-${id}`, `order_${id}`);
    expect(invoiceOf(await pay(store(), 'order_a', lastMinute))).toMatchObject({ number: 'PI/26-27/00001', fy: '2026-27' });
    expect(invoiceOf(await pay(store(), 'order_b', newYear))).toMatchObject({ number: 'PI/27-28/00001', fy: '2027-28' });
    expect(invoiceOf(await pay(store(), 'order_c', newYear)).number).toBe('PI/27-28/00002');
  });

  it('concurrent grants take consecutive numbers, none twice', async () => {
    const ids = Array.from({ length: 6 }, (_, i) => `order_c${i}`);
    for (const [i, id] of ids.entries()) await buyer(store(), `uc${i}`, id);
    const invoices = await Promise.all(ids.map((id) => pay(store(), id).then(invoiceOf)));
    expect(invoices.map((i) => i.sequence).toSorted((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(invoices.map((i) => i.orderId)).size).toBe(6);
  });

  twinTest(backend, { isolated: true })('two instances on one database take consecutive numbers', async () => {
    await withTwins(backend, async (a, b) => {
      const ids = Array.from({ length: 6 }, (_, i) => `order_t${i}`);
      for (const [i, id] of ids.entries()) await buyer(a, `ut${i}`, id);
      const invoices = await Promise.all(ids.map((id, i) => pay(i % 2 ? a : b, id).then(invoiceOf)));
      expect(invoices.map((i) => i.number).toSorted()).toEqual(['PI/26-27/00001', 'PI/26-27/00002', 'PI/26-27/00003', 'PI/26-27/00004', 'PI/26-27/00005', 'PI/26-27/00006']);
    });
  });

  it('a refund issues one credit note against the payment\'s invoice, numbered in its own series', async () => {
    await buyer(store(), 'u1', 'order_1');
    const invoice = invoiceOf(await pay(store(), 'order_1'));
    const later = new Date(NOW.getTime() + 3 * DAY_MS);
    const refund = (refundId: string, amountPaise: number) =>
      store().issueCreditNote({ refundId, paymentId: 'pay_order_1', amountPaise, date: '2026-11-25', now: later, document: creditNoteFor(amountPaise, '2026-11-25', 'Refund') });
    const issued = await refund('rfnd_1', 1_500_000);
    expect(issued.kind).toBe('issued');
    const note = (issued as { note: CreditNoteRecord }).note;
    expect(note).toMatchObject({ id: 'CN-26-27-00001', number: 'CN/26-27/00001', uid: 'u1', invoiceNumber: invoice.number, refundId: 'rfnd_1' });
    // A full refund reverses the invoice's figures exactly.
    expect(note.document.tax).toEqual(invoice.document.tax);
    expect(await refund('rfnd_1', 1_500_000)).toEqual({ kind: 'already_issued', note });
    expect(await store().issueCreditNote({ refundId: 'rfnd_x', paymentId: 'pay_none', amountPaise: 100, date: '2026-11-25', now: later, document: creditNoteFor(100, '2026-11-25', 'Refund') })).toEqual({ kind: 'no_invoice' });
    expect(await store().listCreditNotes('u1')).toEqual([note]);
    expect(await store().findCreditNote('CN-26-27-00001')).toEqual(note);
  });

  it('exports and imports every invoice kind (store:copy, backups) and refuses a broken record', async () => {
    await buyer(store(), 'u1', 'order_1');
    await pay(store(), 'order_1');
    await store().issueCreditNote({ refundId: 'rfnd_1', paymentId: 'pay_order_1', amountPaise: 500_000, date: '2026-11-25', now: NOW, document: creditNoteFor(500_000, '2026-11-25', 'Refund') });
    const exported = async <K extends 'billingDetails' | 'invoices' | 'creditNotes' | 'documentCounters'>(s: Store, kind: K) => {
      const out: unknown[] = [];
      for await (const page of s.exportRecords(kind)) out.push(...page);
      return out;
    };
    const target = await backend.open();
    try {
      for (const kind of ['billingDetails', 'documentCounters', 'invoices', 'creditNotes'] as const) {
        const records = await exported(store(), kind);
        expect(records.length, kind).toBeGreaterThan(0);
        expect(await target.importRecords(kind, records as never)).toBe(records.length);
        expect(await exported(target, kind), kind).toEqual(records);
      }
      expect(((await exported(target, 'documentCounters')) as DocumentCounter[]).map((c) => [c.key, c.last]).toSorted()).toEqual([['credit-note-2026-27', 1], ['invoice-2026-27', 1]]);
      // The copy goes on numbering where the source stopped.
      await buyer(target, 'u2', 'order_2');
      expect(invoiceOf(await pay(target, 'order_2')).number).toBe('PI/26-27/00002');
      await expect(attempt(() => target.importRecords('documentCounters', [{ key: 'invoice-2026-27', last: -1 }]))).rejects.toThrow();
    } finally {
      await target.close();
    }
  });
});
