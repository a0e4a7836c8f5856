import { describe, expect, it } from 'vitest';
import { counterKey, documentNumber, financialYearOf, financialYearStarting, isValidDocumentNumber, maxSequence, parseDocumentNumber } from '../../src/lib/gst/documentNumbers.ts';
import { formatInvoiceAmount } from '../../src/lib/numbers.ts';
import { buildCreditNote, buildTaxInvoice, recipientOf, SAC_ONLINE_INFORMATION, supplierOf, type Recipient } from '../../src/lib/gst/invoice.ts';
import { sampleParties } from './gstFixtures.ts';
import { findGstState, GST_STATES, stateOfGstin, type GstState } from '../../src/lib/gst/states.ts';
import { splitInclusivePrice, taxableValueOf } from '../../src/lib/gst/tax.ts';
import { rupeesInWords, wholeNumberInWords } from '../../src/lib/gst/words.ts';
import { plans } from '../../src/lib/plans.ts';

const state = (code: string): GstState => findGstState(code)!;
const MAHARASHTRA = state('27');
const KARNATAKA = state('29');
const CHANDIGARH = state('04');

describe('GST on a GST-inclusive price', () => {
  // price → taxable value, GST; CGST/SGST within Maharashtra, IGST to Karnataka.
  it.each([
    [550_000, 466_102, 83_898, 41_949, 41_949],
    [1_000_000, 847_458, 152_542, 76_271, 76_271],
    [1_500_000, 1_271_186, 228_814, 114_407, 114_407],
    [2_500_000, 2_118_644, 381_356, 190_678, 190_678],
    [1_198_631, 1_015_789, 182_842, 91_421, 91_421],
    [11_800, 10_000, 1_800, 900, 900],
    [1, 1, 0, 0, 0],
    [2, 2, 0, 0, 0],
    [3, 3, 0, 0, 0],
    [7, 6, 1, 1, 0],
    [100, 85, 15, 8, 7],
    [0, 0, 0, 0, 0],
  ])('%i paise: taxable %i, GST %i (CGST %i + SGST %i), IGST the whole GST', (price, taxable, gst, cgst, sgst) => {
    const intra = splitInclusivePrice(price, MAHARASHTRA, MAHARASHTRA);
    expect(intra).toEqual({
      kind: 'intra-state',
      taxablePaise: taxable,
      taxPaise: gst,
      totalPaise: price,
      lines: [
        { tax: 'CGST', ratePercent: 9, amountPaise: cgst },
        { tax: 'SGST', ratePercent: 9, amountPaise: sgst },
      ],
    });
    const inter = splitInclusivePrice(price, MAHARASHTRA, KARNATAKA);
    expect(inter).toEqual({ kind: 'inter-state', taxablePaise: taxable, taxPaise: gst, totalPaise: price, lines: [{ tax: 'IGST', ratePercent: 18, amountPaise: gst }] });
  });

  it('adds up to the price exactly, rounds the taxable value to the nearest paisa, and keeps each tax within a paisa of its rate', () => {
    const prices = [...Array.from({ length: 30_000 }, (_, i) => i), ...Array.from({ length: 2_000 }, (_, i) => 99_999_937 * (i + 1))];
    const wrong: string[] = [];
    for (const price of prices) {
      const taxable = taxableValueOf(price);
      // |taxable − price × 100/118| ≤ ½ paisa, in integers.
      if (Math.abs(taxable * 118 - price * 100) > 59) wrong.push(`${price}: taxable ${taxable}`);
      for (const place of [MAHARASHTRA, KARNATAKA]) {
        const split = splitInclusivePrice(price, MAHARASHTRA, place);
        const sum = split.taxablePaise + split.lines.reduce((total, line) => total + line.amountPaise, 0);
        if (sum !== price) wrong.push(`${price} to ${place.name}: adds up to ${sum}`);
        // |line − rate% × taxable| < 1 paisa: |100 × line − rate × taxable| < 100.
        for (const line of split.lines) if (Math.abs(100 * line.amountPaise - line.ratePercent * split.taxablePaise) >= 100) wrong.push(`${price} ${line.tax} ${line.amountPaise}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('charges UTGST instead of SGST within a Union Territory without a legislature', () => {
    expect(splitInclusivePrice(1_500_000, CHANDIGARH, CHANDIGARH).lines.map((l) => l.tax)).toEqual(['CGST', 'UTGST']);
    expect(splitInclusivePrice(1_500_000, CHANDIGARH, MAHARASHTRA).lines.map((l) => l.tax)).toEqual(['IGST']);
    expect(splitInclusivePrice(1_500_000, state('07'), state('07')).lines.map((l) => l.tax)).toEqual(['CGST', 'SGST']); // Delhi has a legislature
  });

  it('refuses what is not a whole number of paise', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER]) expect(() => taxableValueOf(bad), String(bad)).toThrow(RangeError);
  });

  it('gives every plan its price before tax from the same rule', () => {
    for (const plan of plans) expect(plan.priceBeforeTaxPaise).toBe(taxableValueOf(plan.pricePaise));
  });
});

describe('amounts in words (Indian numbering)', () => {
  it.each([
    [0, 'Rupees Zero Only'],
    [100, 'Rupees One Only'],
    [1_500_000, 'Rupees Fifteen Thousand Only'],
    [466_102, 'Rupees Four Thousand Six Hundred Sixty One and Two Paise Only'],
    [1_271_186, 'Rupees Twelve Thousand Seven Hundred Eleven and Eighty Six Paise Only'],
    [50, 'Fifty Paise Only'],
    [1, 'One Paise Only'],
    [10_000_000, 'Rupees One Lakh Only'],
    [1_234_567_890, 'Rupees One Crore Twenty Three Lakh Forty Five Thousand Six Hundred Seventy Eight and Ninety Paise Only'],
    [99_99_99_999_99, 'Rupees Ninety Nine Crore Ninety Nine Lakh Ninety Nine Thousand Nine Hundred Ninety Nine and Ninety Nine Paise Only'],
    [100_00_00_000_00, 'Rupees One Hundred Crore Only'],
    [1_234_56_78_901_00, 'Rupees One Thousand Two Hundred Thirty Four Crore Fifty Six Lakh Seventy Eight Thousand Nine Hundred One Only'],
  ])('%i paise → %s', (paise, words) => expect(rupeesInWords(paise)).toBe(words));

  it('never says "Arab": counts of crores are worded themselves', () => {
    expect(wholeNumberInWords(1_000_000_000)).toBe('One Hundred Crore');
    expect(wholeNumberInWords(25_00_00_00_000)).toBe('Two Thousand Five Hundred Crore');
    expect(wholeNumberInWords(100_00_00_001)).toBe('One Hundred Crore One');
  });

  it('refuses negative and fractional amounts', () => {
    expect(() => rupeesInWords(-100)).toThrow(RangeError);
    expect(() => rupeesInWords(10.5)).toThrow(RangeError);
  });

  it('prints figures with Indian grouping and two decimals', () => {
    expect(formatInvoiceAmount(1_271_186)).toBe('12,711.86');
    expect(formatInvoiceAmount(12_711_864)).toBe('1,27,118.64');
    expect(formatInvoiceAmount(1_234_567_890)).toBe('1,23,45,678.90');
    expect(formatInvoiceAmount(5)).toBe('0.05');
    expect(formatInvoiceAmount(0)).toBe('0.00');
    expect(formatInvoiceAmount(-1_506)).toBe('-15.06');
    expect(() => formatInvoiceAmount(10.5)).toThrow(RangeError);
  });
});

describe('document numbers: ≤ 16 characters, consecutive within a financial year', () => {
  it.each([
    ['2026-04-01', 2026, '2026-27'],
    ['2027-03-31', 2026, '2026-27'],
    ['2026-03-31', 2025, '2025-26'],
    ['2099-12-31', 2099, '2099-00'],
    ['2030-01-15', 2029, '2029-30'],
  ])('%s is in FY %i (%s)', (date, start, label) => {
    const fy = financialYearOf(date);
    expect(fy).toEqual({ startYear: start, label, from: `${start}-04-01`, to: `${start + 1}-03-31` });
  });

  it('numbers each series from 1 in every financial year', () => {
    const fy = financialYearOf('2026-11-22');
    expect(documentNumber('invoice', fy, 1)).toBe('PI/26-27/00001');
    expect(documentNumber('invoice', fy, 2)).toBe('PI/26-27/00002');
    expect(documentNumber('credit-note', fy, 1)).toBe('CN/26-27/00001');
    expect(documentNumber('invoice', financialYearOf('2027-04-01'), 1)).toBe('PI/27-28/00001');
    expect(documentNumber('invoice', fy, 123_456)).toBe('PI/26-27/123456');
    expect(counterKey('invoice', fy)).toBe('invoice-2026-27');
    expect(counterKey('credit-note', fy)).toBe('credit-note-2026-27');
  });

  it('stays within 16 characters of letters, digits, "-" and "/" up to the largest sequence', () => {
    const fy = financialYearStarting(2026);
    for (const series of ['invoice', 'credit-note'] as const) {
      const last = documentNumber(series, fy, maxSequence(series));
      expect(last.length).toBe(16);
      expect(isValidDocumentNumber(last)).toBe(true);
      expect(() => documentNumber(series, fy, maxSequence(series) + 1)).toThrow(RangeError);
      expect(() => documentNumber(series, fy, 0)).toThrow(RangeError);
      expect(() => documentNumber(series, fy, 1.5)).toThrow(RangeError);
    }
  });

  it('reads back the numbers it writes, and nothing else', () => {
    const fy = financialYearStarting(2026);
    for (const sequence of [1, 42, 99_999, 100_000, 9_999_999]) {
      expect(parseDocumentNumber(documentNumber('invoice', fy, sequence))).toEqual({ series: 'invoice', fy, sequence });
    }
    for (const bad of ['PI/26-28/00001', 'PI/26-27/0001', 'PI/26-27/00000', 'XX/26-27/00001', 'PI/26-27/000001', 'pi/26-27/00001', 'PI/16-17/00001', 'PI/26-27/12345678', '']) {
      expect(parseDocumentNumber(bad), bad).toBeNull();
    }
    expect(isValidDocumentNumber('PI 26/1')).toBe(false);
    expect(isValidDocumentNumber('PI_26/1')).toBe(false);
    expect(isValidDocumentNumber('A'.repeat(17))).toBe(false);
  });
});

describe('states and GSTINs', () => {
  it('has each current state code once, two digits, and no retired ones', () => {
    const codes = GST_STATES.map((s) => s.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.every((c) => /^\d{2}$/.test(c))).toBe(true);
    expect(codes).not.toContain('25');
    expect(codes).not.toContain('28');
    expect(codes).toHaveLength(36);
    expect(GST_STATES.filter((s) => s.unionTerritory).map((s) => s.code)).toEqual(['04', '26', '31', '35', '38']);
  });

  it.each([
    ['27AAACR5055K1Z7', 'Maharashtra'],
    ['29AABCT1332L1ZA', 'Karnataka'],
    ['07AAGCS4467M1ZS', 'Delhi'],
    ['33AADCB2230M1Z0', 'Tamil Nadu'],
    [' 27aaacr5055k1z7 ', 'Maharashtra'],
  ])('GSTIN %s is registered in %s', (gstin, name) => expect(stateOfGstin(gstin.toUpperCase())?.name).toBe(name));

  it('names no state for a retired or unknown code', () => {
    expect(stateOfGstin('25AAACR5055K1Z7')).toBeUndefined();
    expect(stateOfGstin('99AAACR5055K1Z7')).toBeUndefined();
  });

  const details = { legalName: 'Raj Polymers Private Limited', address: 'Plot 14, MIDC | Taloja', pin: '410208', stateCode: '27' };
  it('takes a registered buyer\'s state from the GSTIN, and an unregistered buyer\'s from the form', () => {
    expect(recipientOf({ ...details, gstin: '27aaacr5055k1z7' })).toEqual({
      ok: true,
      value: { legalName: 'Raj Polymers Private Limited', address: ['Plot 14, MIDC', 'Taloja'], gstin: '27AAACR5055K1Z7', pin: '410208', state: MAHARASHTRA },
    });
    expect(recipientOf({ ...details, stateCode: '29', gstin: '' })).toMatchObject({ ok: true, value: { gstin: null, state: KARNATAKA } });
  });

  it.each([
    [{ gstin: '27AAACR5055K1Z8' }, 'gstin'],
    [{ gstin: '27AAACR5055K1Z' }, 'gstin'],
    [{ gstin: '29AABCT1332L1ZA' }, 'stateCode'],
    [{ stateCode: '25' }, 'stateCode'],
    [{ stateCode: '' }, 'stateCode'],
    [{ pin: '01234' }, 'pin'],
    [{ pin: '0123456' }, 'pin'],
    [{ pin: 'ABCDEF' }, 'pin'],
    [{ legalName: '  ' }, 'legalName'],
    [{ legalName: 'x'.repeat(121) }, 'legalName'],
    [{ address: '' }, 'address'],
    [{ address: 'a|b|c|d|e' }, 'address'],
  ])('refuses %o (field %s)', (change, field) => {
    const result = recipientOf({ ...details, ...change });
    expect(result).toMatchObject({ ok: false, field });
    if (!result.ok) expect(result.message.length).toBeGreaterThan(10);
  });

  it('refuses supplier settings with a bad GSTIN or no name', () => {
    expect(supplierOf({ legalName: 'PolyIndex', address: 'Mumbai', gstin: '27AABCP1234F1ZV' })).toMatchObject({ ok: false, field: 'gstin' });
    expect(supplierOf({ legalName: '', address: 'Mumbai', gstin: '27AABCP1234F1ZU' })).toMatchObject({ ok: false, field: 'legalName' });
    expect(supplierOf({ legalName: 'PolyIndex', address: 'Mumbai', gstin: '27AABCP1234F1ZU' })).toMatchObject({ ok: true, value: { state: MAHARASHTRA } });
  });
});

describe('tax invoices and credit notes', () => {
  const { supplier, inState, otherState, unregistered } = sampleParties();
  const invoiceFor = (recipient: Recipient, amountPaise = 1_500_000) =>
    buildTaxInvoice({ number: 'PI/26-27/00007', date: '2026-11-22', supplier, recipient, description: 'PolyIndex Premium plan, one year', amountPaise, payment: { orderId: 'order_1', paymentId: 'pay_1' } });

  it('charges CGST and SGST to a buyer in the supplier\'s state, with every particular of rule 46', () => {
    const invoice = invoiceFor(inState);
    expect(invoice).toMatchObject({
      kind: 'tax-invoice',
      number: 'PI/26-27/00007',
      date: '2026-11-22',
      placeOfSupply: MAHARASHTRA,
      reverseCharge: false,
      line: { sac: SAC_ONLINE_INFORMATION, amountPaise: 1_500_000 },
      tax: { kind: 'intra-state', taxablePaise: 1_271_186, totalPaise: 1_500_000 },
      amountInWords: 'Rupees Fifteen Thousand Only',
    });
    expect(invoice.tax.lines.map((l) => [l.tax, l.amountPaise])).toEqual([['CGST', 114_407], ['SGST', 114_407]]);
  });

  it('charges IGST to a buyer in another state, registered or not (place of supply: the buyer\'s state)', () => {
    for (const recipient of [otherState, unregistered]) {
      const invoice = invoiceFor(recipient);
      expect(invoice.placeOfSupply).toBe(recipient.state);
      expect(invoice.tax.lines).toEqual([{ tax: 'IGST', ratePercent: 18, amountPaise: 228_814 }]);
    }
  });

  it('credits a full refund with exactly the invoice\'s figures, and a part refund split the same way', () => {
    for (const recipient of [inState, otherState]) {
      const invoice = invoiceFor(recipient);
      const full = buildCreditNote({ number: 'CN/26-27/00001', date: '2026-12-01', invoice, amountPaise: invoice.tax.totalPaise, reason: 'Cancelled within 7 days' });
      expect(full.tax).toEqual(invoice.tax);
      expect(full.against).toEqual({ number: 'PI/26-27/00007', date: '2026-11-22' });
      const part = buildCreditNote({ number: 'CN/26-27/00002', date: '2026-12-01', invoice, amountPaise: 1_062_000, reason: 'Pro-rata refund' });
      expect(part.tax.taxablePaise).toBe(900_000);
      expect(part.tax.kind).toBe(invoice.tax.kind);
      expect(part.amountInWords).toBe('Rupees Ten Thousand Six Hundred Twenty Only');
    }
  });

  it('refuses a credit note above the invoice, before it, or without a reason; and malformed headers', () => {
    const invoice = invoiceFor(otherState);
    const note = { number: 'CN/26-27/00001', date: '2026-12-01', invoice, amountPaise: 100, reason: 'x' };
    expect(() => buildCreditNote({ ...note, amountPaise: 1_500_001 })).toThrow(RangeError);
    expect(() => buildCreditNote({ ...note, amountPaise: 0 })).toThrow(RangeError);
    expect(() => buildCreditNote({ ...note, date: '2026-11-21' })).toThrow(RangeError);
    expect(() => buildCreditNote({ ...note, reason: ' ' })).toThrow(RangeError);
    expect(() => buildCreditNote({ ...note, number: 'CN 1' })).toThrow(RangeError);
    expect(() => invoiceFor(otherState, 0)).toThrow(RangeError);
    expect(() => buildTaxInvoice({ ...invoiceFor(otherState), number: 'PI/26-27/00001', date: '22-11-2026', amountPaise: 100, description: 'x' })).toThrow(RangeError);
  });
});
