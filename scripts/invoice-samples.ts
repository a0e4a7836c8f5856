// `npm run invoice:samples [-- --out DIR]`: renders sample GST documents for the desk to check
// the layout and the supplier settings: a Premium invoice to a buyer in the supplier's own state
// (CGST + SGST), one to a buyer in another state (IGST), one to an unregistered buyer, and a credit
// note refunding part of the second. Nothing is stored and no number is used up: the numbers are
// samples. The supplier comes from INVOICE_LEGAL_NAME, INVOICE_ADDRESS, CONTACT_GSTIN,
// CONTACT_EMAIL and CONTACT_PHONE as the server reads them (their defaults when unset).
// Runs under plain Node 24 (type stripping): imports carry their .ts extensions.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isoDateOf, toDisplayDate } from '../src/lib/dates.ts';
import { documentNumber, financialYearOf } from '../src/lib/gst/documentNumbers.ts';
import { buildCreditNote, buildTaxInvoice, recipientOf, supplierOf, type Recipient } from '../src/lib/gst/invoice.ts';
import { findPlan } from '../src/lib/plans.ts';
import { formatPaise } from '../src/lib/numbers.ts';
import { pdfFileName, renderGstPdf } from '../src/server/invoices/pdf.ts';

const { values } = parseArgs({ options: { out: { type: 'string', default: '.cache/invoice-samples' } } });
const out = resolve(values.out);
mkdirSync(out, { recursive: true });

const env = process.env;
const supplier = supplierOf({
  legalName: env['INVOICE_LEGAL_NAME'] ?? 'PolyIndex Market Data Private Limited',
  address: env['INVOICE_ADDRESS'] ?? '402 Trade Centre, Bandra Kurla Complex | Bandra (East), Mumbai 400051',
  gstin: env['CONTACT_GSTIN'] ?? '27AABCP1234F1ZU',
  email: env['CONTACT_EMAIL'] ?? 'desk@polyindex.test',
  phone: env['CONTACT_PHONE'] ?? '+91 22 4000 7000',
});
if (!supplier.ok) throw new Error(`supplier settings: ${supplier.field}: ${supplier.message}`);

const buyer = (details: Parameters<typeof recipientOf>[0]): Recipient => {
  const checked = recipientOf(details);
  if (!checked.ok) throw new Error(`${checked.field}: ${checked.message}`);
  return checked.value;
};
const intraState = buyer({ legalName: 'Raj Polymers Private Limited', address: 'Plot 14, MIDC Industrial Area | Taloja, Navi Mumbai', pin: '410208', stateCode: '27', gstin: '27AAACR5055K1Z7' });
const interState = buyer({ legalName: 'Tungabhadra Packaging LLP', address: '2nd Floor, 41 Industrial Suburb | Yeshwanthpur, Bengaluru', pin: '560022', stateCode: '29', gstin: '29AABCT1332L1ZA' });
const unregistered = buyer({ legalName: 'Anita Deshpande', address: '17 Lake View Road | Kolkata', pin: '700029', stateCode: '19' });

const premium = findPlan('Premium')!;
const today = isoDateOf(new Date());
const fy = financialYearOf(today);
const description = `PolyIndex ${premium.name} plan: online price information service for one year from ${toDisplayDate(today)}`;
const invoices = [intraState, interState, unregistered].map((recipient, i) =>
  buildTaxInvoice({
    number: documentNumber('invoice', fy, i + 1),
    date: today,
    supplier: supplier.value,
    recipient,
    description,
    amountPaise: premium.pricePaise,
    payment: { orderId: `order_sample${i + 1}`, paymentId: `pay_sample${i + 1}` },
  }),
);
const credit = buildCreditNote({ number: documentNumber('credit-note', fy, 1), date: today, invoice: invoices[1]!, amountPaise: 1_062_000, reason: 'Pro-rata refund on cancellation (9 unused months, less the administration charge)' });

for (const document of [...invoices, credit]) {
  const file = join(out, pdfFileName(document));
  writeFileSync(file, await renderGstPdf(document));
  console.log(`${file}: ${document.kind}, ${document.tax.kind}, ${formatPaise(document.tax.totalPaise)}`);
}
