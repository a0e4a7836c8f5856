/**
 * A GST tax invoice or credit note (src/lib/gst/invoice.ts) as an A4 PDF, with pdfkit: a
 * maintained, widely used generator that lays out and wraps text, embeds a TrueType font as a
 * subset with its Unicode map (so the PDF's text is searchable and extractable: the tests read
 * it back), and streams without a browser. The font is Noto Sans (./notoSans.ts), which has ₹.
 * Every figure and word comes from the document model: this module only places them.
 */
import PDFDocument from 'pdfkit';
import { toDisplayDate } from '../../lib/dates.ts';
import { type CreditNote, type TaxInvoice } from '../../lib/gst/invoice.ts';
import { formatInvoiceAmount } from '../../lib/numbers.ts';
import { stateWithCode } from '../../lib/gst/states.ts';
import { NOTO_SANS_BOLD_BASE64, NOTO_SANS_REGULAR_BASE64 } from './notoSans.ts';

type GstDocument = TaxInvoice | CreditNote;

const REGULAR = Buffer.from(NOTO_SANS_REGULAR_BASE64, 'base64');
const BOLD = Buffer.from(NOTO_SANS_BOLD_BASE64, 'base64');

const PAGE = { width: 595.28, height: 841.89, margin: 48 } as const;
const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const INK = '#1d2433';
const MUTED = '#5b6475';
const NAVY = '#0b2545';
const LINE = '#c9d1dc';

export const documentTitle = (document: GstDocument): string => (document.kind === 'tax-invoice' ? 'Tax Invoice' : 'Credit Note');

/** The PDF's file name: "PI-26-27-00001.pdf" (a document number's slashes are not file-name characters). */
export const pdfFileName = (document: GstDocument): string => `${document.number.replaceAll('/', '-')}.pdf`;

export function renderGstPdf(document: GstDocument): Promise<Buffer> {
  const title = `${documentTitle(document)} ${document.number}`;
  const pdf = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    font: '',
    lang: 'en-IN',
    displayTitle: true,
    info: { Title: title, Author: document.supplier.legalName, Subject: `${documentTitle(document)} for ${document.recipient.legalName}`, Creator: 'PolyIndex', CreationDate: new Date(`${document.date}T00:00:00+05:30`) },
  });
  pdf.registerFont('regular', REGULAR);
  pdf.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  draw(pdf, document);
  pdf.end();
  return done;
}

function draw(pdf: PDFKit.PDFDocument, document: GstDocument): void {
  const left = PAGE.margin;
  const rule = (y: number, color = LINE) => pdf.moveTo(left, y).lineTo(left + CONTENT_WIDTH, y).lineWidth(0.7).strokeColor(color).stroke();
  const text = (value: string, x: number, y: number, options: PDFKit.Mixins.TextOptions & { readonly font?: 'regular' | 'bold'; readonly size?: number; readonly color?: string } = {}) => {
    const { font = 'regular', size = 9.5, color = INK, ...rest } = options;
    pdf.font(font).fontSize(size).fillColor(color).text(value, x, y, rest);
    return pdf.y;
  };

  // Heading: the kind of document (rule 53: "nature of the document"), its number and date.
  let y: number = PAGE.margin;
  text(document.supplier.legalName, left, y, { font: 'bold', size: 11, color: NAVY, width: CONTENT_WIDTH / 2 });
  text(documentTitle(document).toUpperCase(), left + CONTENT_WIDTH / 2, y, { font: 'bold', size: 18, color: NAVY, width: CONTENT_WIDTH / 2, align: 'right' });
  y += 26;
  text(document.kind === 'tax-invoice' ? 'Original for recipient' : 'Issued under section 34 of the CGST Act', left + CONTENT_WIDTH / 2, y, { size: 8.5, color: MUTED, width: CONTENT_WIDTH / 2, align: 'right' });
  y += 22;
  rule(y, NAVY);
  y += 10;

  const facts: [string, string][] = [
    [document.kind === 'tax-invoice' ? 'Invoice number' : 'Credit note number', document.number],
    ['Date of issue', toDisplayDate(document.date)],
    ...(document.kind === 'credit-note' ? ([['Against tax invoice', `${document.against.number} of ${toDisplayDate(document.against.date)}`]] as [string, string][]) : []),
    ['Place of supply', stateWithCode(document.placeOfSupply)],
    ['Supply', document.tax.kind === 'intra-state' ? 'Within the state (CGST and SGST)' : 'Between states (IGST)'],
    ['Tax payable on reverse charge', 'No'],
  ];
  for (const [label, value] of facts) {
    text(label, left, y, { size: 9, color: MUTED, width: 150 });
    y = Math.max(y + 13, text(value, left + 155, y, { font: 'bold', size: 9.5, width: CONTENT_WIDTH - 155 }));
  }
  y += 10;

  // Parties: supplier (rule 46(a)) and recipient (46(d)–(f)), side by side.
  const column = (CONTENT_WIDTH - 20) / 2;
  const party = (x: number, heading: string, name: string, lines: readonly string[]) => {
    let at = text(heading.toUpperCase(), x, y, { font: 'bold', size: 8, color: MUTED, width: column, characterSpacing: 0.4 });
    at = text(name, x, at + 2, { font: 'bold', size: 10.5, width: column });
    for (const line of lines) at = text(line, x, at + 1, { size: 9.5, width: column });
    return at;
  };
  const supplier = document.supplier;
  const recipient = document.recipient;
  const supplierEnd = party(left, 'From (supplier)', supplier.legalName, [
    ...supplier.address,
    `State: ${stateWithCode(supplier.state)}`,
    `GSTIN: ${supplier.gstin}`,
    ...(supplier.email ? [`E-mail: ${supplier.email}`] : []),
    ...(supplier.phone ? [`Phone: ${supplier.phone}`] : []),
  ]);
  const recipientEnd = party(left + column + 20, 'Billed to (recipient)', recipient.legalName, [
    ...recipient.address,
    `PIN code: ${recipient.pin}`,
    `State: ${stateWithCode(recipient.state)}`,
    recipient.gstin ? `GSTIN: ${recipient.gstin}` : 'GSTIN: not registered',
  ]);
  y = Math.max(supplierEnd, recipientEnd) + 16;

  // The line: description (46(h)), SAC (46(g)), value (46(j), (k)).
  const cols = { no: left, description: left + 24, sac: left + CONTENT_WIDTH - 190, value: left + CONTENT_WIDTH - 110 };
  rule(y);
  y += 6;
  text('#', cols.no, y, { font: 'bold', size: 8.5, color: MUTED });
  text('Description of service', cols.description, y, { font: 'bold', size: 8.5, color: MUTED });
  text('SAC', cols.sac, y, { font: 'bold', size: 8.5, color: MUTED });
  text('Taxable value (₹)', cols.value, y, { font: 'bold', size: 8.5, color: MUTED, width: 110, align: 'right' });
  y += 16;
  rule(y);
  y += 6;
  text('1', cols.no, y);
  const descriptionEnd = text(document.line.description, cols.description, y, { width: cols.sac - cols.description - 12 });
  text(document.line.sac, cols.sac, y);
  text(formatInvoiceAmount(document.tax.taxablePaise), cols.value, y, { width: 110, align: 'right' });
  y = descriptionEnd + 8;
  rule(y);
  y += 8;

  // Totals: taxable value, each tax with its rate (46(l), (m)), the total in figures and words.
  const amountRow = (label: string, paise: number, strong = false) => {
    text(label, left + CONTENT_WIDTH - 300, y, { font: strong ? 'bold' : 'regular', size: strong ? 10.5 : 9.5, width: 190, align: 'right' });
    text(formatInvoiceAmount(paise), cols.value, y, { font: strong ? 'bold' : 'regular', size: strong ? 10.5 : 9.5, width: 110, align: 'right' });
    y += strong ? 18 : 15;
  };
  amountRow('Taxable value', document.tax.taxablePaise);
  for (const line of document.tax.lines) amountRow(`${line.tax} @ ${line.ratePercent}%`, line.amountPaise);
  rule(y);
  y += 6;
  amountRow(document.kind === 'tax-invoice' ? 'Total (₹)' : 'Total credited (₹)', document.tax.totalPaise, true);
  y += 4;
  text('Amount in words', left, y, { size: 8.5, color: MUTED });
  y = text(document.amountInWords, left, y + 12, { font: 'bold', size: 10, width: CONTENT_WIDTH }) + 14;

  if (document.kind === 'tax-invoice') {
    y = text(`Paid in full through Razorpay: payment ${document.payment.paymentId}, order ${document.payment.orderId}.`, left, y, { size: 9, color: MUTED, width: CONTENT_WIDTH }) + 4;
  } else {
    y = text(`Reason: ${document.reason}`, left, y, { size: 9.5, width: CONTENT_WIDTH }) + 4;
  }

  // Authentication (46(q)): issued electronically, in the supplier's name.
  y += 24;
  text(`For ${supplier.legalName}`, left + CONTENT_WIDTH / 2, y, { font: 'bold', size: 9.5, width: CONTENT_WIDTH / 2, align: 'right' });
  text('Authorised signatory', left + CONTENT_WIDTH / 2, y + 28, { size: 9, color: MUTED, width: CONTENT_WIDTH / 2, align: 'right' });
  const footer = `This ${documentTitle(document).toLowerCase()} was issued electronically by ${supplier.legalName}. ${supplier.email ? `Questions: ${supplier.email}.` : ''}`;
  text(footer.trim(), left, PAGE.height - PAGE.margin - 24, { size: 8, color: MUTED, width: CONTENT_WIDTH, align: 'center' });
}
