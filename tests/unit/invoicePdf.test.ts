// The GST invoice and credit note as PDFs: rendered by src/server/invoices/pdf.ts, read back
// with a PDF text extractor (unpdf, pdf.js), and every particular checked in the text.
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { buildCreditNote, buildTaxInvoice, type Recipient } from '../../src/lib/gst/invoice.ts';
import { pdfFileName, renderGstPdf } from '../../src/server/invoices/pdf.ts';
import { sampleParties } from './gstFixtures.ts';

const { supplier, inState, otherState, unregistered } = sampleParties();

const invoiceFor = (recipient: Recipient, number = 'PI/26-27/00042') =>
  buildTaxInvoice({
    number,
    date: '2026-11-22',
    supplier,
    recipient,
    description: 'PolyIndex Premium plan: online price information service, 22 Nov 2026 to 21 Nov 2027',
    amountPaise: 1_500_000,
    payment: { orderId: 'order_RbC1x', paymentId: 'pay_RbC9z' },
  });

async function pdfText(bytes: Buffer): Promise<{ text: string; pages: number; title: string | undefined }> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text, totalPages } = await extractText(pdf, { mergePages: true });
  const meta = await getMeta(pdf);
  return { text: text.replace(/\s+/g, ' '), pages: totalPages, title: (meta.info as { Title?: string }).Title };
}

describe('the tax invoice PDF', () => {
  it('carries every particular of rule 46 for an inter-state buyer (IGST)', async () => {
    const bytes = await renderGstPdf(invoiceFor(otherState));
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const { text, pages, title } = await pdfText(bytes);
    expect(pages).toBe(1);
    expect(title).toBe('Tax Invoice PI/26-27/00042');
    for (const part of [
      'TAX INVOICE',
      'PI/26-27/00042',
      '22nd Nov 2026',
      // supplier: name, address, GSTIN, state
      'PolyIndex Market Data Private Limited',
      '402 Trade Centre, BKC',
      'GSTIN: 27AABCP1234F1ZU',
      'State: Maharashtra (27)',
      // recipient: name, address, PIN, state and code, GSTIN
      'Tungabhadra Packaging LLP',
      '41 Industrial Suburb',
      'PIN code: 560022',
      'State: Karnataka (29)',
      'GSTIN: 29AABCT1332L1ZA',
      // place of supply, reverse charge, SAC, description, values, tax, totals in figures and words
      'Place of supply Karnataka (29)',
      'Between states (IGST)',
      'Tax payable on reverse charge No',
      '998431',
      'PolyIndex Premium plan',
      'Taxable value (₹)',
      '12,711.86',
      'IGST @ 18% 2,288.14',
      'Total (₹) 15,000.00',
      'Rupees Fifteen Thousand Only',
      'pay_RbC9z',
      'Authorised signatory',
    ]) {
      expect(text, part).toContain(part);
    }
    expect(text).not.toContain('CGST');
    expect(text).not.toContain('SGST');
  });

  it('splits CGST and SGST for a buyer in the supplier\'s state', async () => {
    const { text } = await pdfText(await renderGstPdf(invoiceFor(inState)));
    expect(text).toContain('Place of supply Maharashtra (27)');
    expect(text).toContain('Within the state (CGST and SGST)');
    expect(text).toContain('CGST @ 9% 1,144.07');
    expect(text).toContain('SGST @ 9% 1,144.07');
    expect(text).toContain('GSTIN: 27AAACR5055K1Z7');
    expect(text).not.toContain('IGST @');
  });

  it('says an unregistered buyer has no GSTIN, and still names their state and PIN', async () => {
    const { text } = await pdfText(await renderGstPdf(invoiceFor(unregistered)));
    expect(text).toContain('Anita Deshpande');
    expect(text).toContain('GSTIN: not registered');
    expect(text).toContain('State: West Bengal (19)');
    expect(text).toContain('PIN code: 700029');
  });

  it('names its file after its number', () => {
    expect(pdfFileName(invoiceFor(inState))).toBe('PI-26-27-00042.pdf');
  });
});

describe('the credit note PDF', () => {
  it('names itself, the invoice it credits, the reason and the credited tax', async () => {
    const invoice = invoiceFor(otherState);
    const note = buildCreditNote({ number: 'CN/26-27/00003', date: '2026-12-05', invoice, amountPaise: 1_062_000, reason: 'Pro-rata refund on cancellation' });
    const { text, title } = await pdfText(await renderGstPdf(note));
    expect(title).toBe('Credit Note CN/26-27/00003');
    for (const part of [
      'CREDIT NOTE',
      'CN/26-27/00003',
      '5th Dec 2026',
      'Against tax invoice PI/26-27/00042 of 22nd Nov 2026',
      'GSTIN: 27AABCP1234F1ZU',
      'GSTIN: 29AABCT1332L1ZA',
      'IGST @ 18% 1,620.00',
      'Total credited (₹) 10,620.00',
      'Rupees Ten Thousand Six Hundred Twenty Only',
      'Reason: Pro-rata refund on cancellation',
    ]) {
      expect(text, part).toContain(part);
    }
  });
});
