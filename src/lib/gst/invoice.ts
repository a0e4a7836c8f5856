/**
 * The GST tax invoice and credit note of a plan payment, as documents (pure): every particular
 * CGST Rules 2017 rule 46 asks of a tax invoice and rule 53(1A) of a credit note, worked out
 * from the supplier's settings, the buyer's billing details and the price the plan table
 * charged. The PDF (src/server/invoices/pdf.ts) only lays these out; docs/payments.md lists the
 * rules followed and where each particular comes from.
 */
import { isValidGstin } from '../gstin.ts';
import { isValidDocumentNumber } from './documentNumbers.ts';
import { findGstState, stateOfGstin, type GstState } from './states.ts';
import { splitInclusivePrice, type TaxSplit } from './tax.ts';
import { rupeesInWords } from './words.ts';
import { parseIsoDate, type IsoDate } from '../dates.ts';

/**
 * SAC 998431, "On-line text based information such as online books, newspapers, periodicals,
 * directories and the like" (group 99843, on-line content services): the heading for an
 * online information and database access or retrieval service such as a price database.
 */
export const SAC_ONLINE_INFORMATION = '998431';
export const SERVICE_DESCRIPTION = 'Online information and database access or retrieval services';

export interface Supplier {
  readonly legalName: string;
  readonly address: readonly string[];
  readonly gstin: string;
  /** From the GSTIN's first two digits. */
  readonly state: GstState;
  readonly email: string | null;
  readonly phone: string | null;
}

export interface Recipient {
  readonly legalName: string;
  readonly address: readonly string[];
  /** Null for a buyer without GST registration (B2C). */
  readonly gstin: string | null;
  /** The billing address's PIN code (rule 46(f), proviso: online services to unregistered buyers). */
  readonly pin: string;
  /** The GSTIN's state when there is one; otherwise the state the buyer gave (rule 46(f), proviso for online services). */
  readonly state: GstState;
}

/** What a field is wrong with, in words a buyer can act on. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

type Checked<T> = { readonly ok: true; readonly value: T } | ({ readonly ok: false } & FieldProblem);

const MAX_NAME = 120;
const MAX_ADDRESS_LINE = 120;
const MAX_ADDRESS_LINES = 4;

const lines = (address: string | readonly string[]): string[] =>
  (typeof address === 'string' ? address.split(/\r?\n|\|/) : [...address]).map((line) => line.trim().replace(/\s+/g, ' ')).filter(Boolean);

/** What the invoice font prints: Latin letters, digits and the usual punctuation (docs/payments.md, "PDF"). */
const PRINTABLE = /^[\x20-\x7E\u00A0-\u00FF\u2013\u2014\u2018\u2019]*$/;

function checkParty(name: string, address: string | readonly string[]): FieldProblem | { name: string; address: string[] } {
  const legalName = name.trim().replace(/\s+/g, ' ');
  if (!legalName) return { field: 'legalName', message: 'Enter the legal name the invoice is made out to.' };
  if (!PRINTABLE.test(legalName)) return { field: 'legalName', message: 'Write the legal name in English letters, as on your GST registration or PAN.' };
  if (legalName.length > MAX_NAME) return { field: 'legalName', message: `The legal name can have at most ${MAX_NAME} characters.` };
  const addressLines = lines(address);
  if (addressLines.length === 0) return { field: 'address', message: 'Enter the billing address.' };
  if (addressLines.length > MAX_ADDRESS_LINES || addressLines.some((line) => line.length > MAX_ADDRESS_LINE))
    return { field: 'address', message: `The address can have at most ${MAX_ADDRESS_LINES} lines of ${MAX_ADDRESS_LINE} characters.` };
  if (addressLines.some((line) => !PRINTABLE.test(line))) return { field: 'address', message: 'Write the address in English letters.' };
  return { name: legalName, address: addressLines };
}

/** The supplier from configuration: name, address and a valid GSTIN of a current state. */
export function supplierOf(settings: { legalName: string; address: string; gstin: string; email?: string | null; phone?: string | null }): Checked<Supplier> {
  const party = checkParty(settings.legalName, settings.address);
  if ('field' in party) return { ok: false, ...party };
  const gstin = settings.gstin.trim().toUpperCase();
  if (!isValidGstin(gstin)) return { ok: false, field: 'gstin', message: `The supplier GSTIN ${gstin} is not a valid GSTIN.` };
  const state = stateOfGstin(gstin);
  if (!state) return { ok: false, field: 'gstin', message: `The supplier GSTIN ${gstin} names no current state.` };
  return { ok: true, value: { legalName: party.name, address: party.address, gstin, state, email: settings.email?.trim() || null, phone: settings.phone?.trim() || null } };
}

/**
 * The buyer from their billing details. A GSTIN (optional) must be valid, and its state is the
 * buyer's state: the place of supply of a registered buyer is where they are registered.
 */
export function recipientOf(details: { legalName: string; address: string | readonly string[]; pin: string; stateCode: string; gstin?: string | null | undefined }): Checked<Recipient> {
  const party = checkParty(details.legalName, details.address);
  if ('field' in party) return { ok: false, ...party };
  const pin = details.pin.replace(/\s+/g, '');
  if (!/^[1-9]\d{5}$/.test(pin)) return { ok: false, field: 'pin', message: 'Enter the 6-digit PIN code of the billing address.' };
  const chosen = findGstState(details.stateCode);
  if (!chosen) return { ok: false, field: 'stateCode', message: 'Choose the state of the billing address.' };
  const gstin = details.gstin?.trim().toUpperCase() || null;
  if (gstin === null) return { ok: true, value: { legalName: party.name, address: party.address, gstin: null, pin, state: chosen } };
  if (!isValidGstin(gstin)) return { ok: false, field: 'gstin', message: 'This is not a valid GSTIN: check the 15 characters (the last one is a check character).' };
  const registered = stateOfGstin(gstin);
  if (!registered) return { ok: false, field: 'gstin', message: 'This GSTIN names no current state.' };
  if (registered.code !== chosen.code)
    return { ok: false, field: 'stateCode', message: `GSTIN ${gstin} is registered in ${registered.name}: choose ${registered.name}, or leave the GSTIN out.` };
  return { ok: true, value: { legalName: party.name, address: party.address, gstin, pin, state: registered } };
}

/** The one line of a plan invoice: the plan and the period it covers. */
export interface InvoiceLine {
  readonly description: string;
  readonly sac: string;
  /** GST-inclusive, as charged. */
  readonly amountPaise: number;
}

interface DocumentBase {
  readonly number: string;
  readonly date: IsoDate;
  readonly supplier: Supplier;
  readonly recipient: Recipient;
  /** The recipient's state (section 12(2) IGST Act); printed with its code. */
  readonly placeOfSupply: GstState;
  readonly line: InvoiceLine;
  readonly tax: TaxSplit;
  /** The total (GST included) in words. */
  readonly amountInWords: string;
  /** Rule 46(p): no supply of ours is taxed on reverse charge. */
  readonly reverseCharge: false;
}

export interface TaxInvoice extends DocumentBase {
  readonly kind: 'tax-invoice';
  /** The payment it was issued for (printed so the buyer can match their bank statement). */
  readonly payment: { readonly orderId: string; readonly paymentId: string };
}

export interface CreditNote extends DocumentBase {
  readonly kind: 'credit-note';
  /** Rule 53(1A)(h): the invoice it credits. */
  readonly against: { readonly number: string; readonly date: IsoDate };
  readonly reason: string;
}

function checkHeader(number: string, date: string): void {
  if (!isValidDocumentNumber(number)) throw new RangeError(`not a valid document number: ${number}`);
  if (parseIsoDate(date) !== date) throw new RangeError(`not a date: ${date}`);
}

export interface TaxInvoiceInput {
  readonly number: string;
  /** The IST date of issue (the payment's day). */
  readonly date: IsoDate;
  readonly supplier: Supplier;
  readonly recipient: Recipient;
  /** "PolyIndex Premium plan, 12 months (22 Nov 2026 – 21 Nov 2027)". */
  readonly description: string;
  /** What was charged, GST included, from the plan table (or the proration of an upgrade). */
  readonly amountPaise: number;
  readonly payment: { readonly orderId: string; readonly paymentId: string };
}

export function buildTaxInvoice(input: TaxInvoiceInput): TaxInvoice {
  checkHeader(input.number, input.date);
  if (input.amountPaise <= 0) throw new RangeError('an invoice is for an amount above zero');
  const placeOfSupply = input.recipient.state;
  const tax = splitInclusivePrice(input.amountPaise, input.supplier.state, placeOfSupply);
  return {
    kind: 'tax-invoice',
    number: input.number,
    date: input.date,
    supplier: input.supplier,
    recipient: input.recipient,
    placeOfSupply,
    line: { description: input.description, sac: SAC_ONLINE_INFORMATION, amountPaise: input.amountPaise },
    tax,
    amountInWords: rupeesInWords(tax.totalPaise),
    reverseCharge: false,
    payment: input.payment,
  };
}

export interface CreditNoteInput {
  readonly number: string;
  readonly date: IsoDate;
  readonly invoice: TaxInvoice;
  /** GST-inclusive amount refunded: at most the invoice's total. */
  readonly amountPaise: number;
  readonly reason: string;
}

/**
 * A credit note for a refund against an invoice (CGST Act section 34; rule 53(1A)). The credited
 * amount is split as the invoice was (same parties, same place of supply, same rule), so a full
 * refund reverses exactly the invoice's taxable value and each tax line.
 */
export function buildCreditNote(input: CreditNoteInput): CreditNote {
  checkHeader(input.number, input.date);
  const { invoice } = input;
  if (!Number.isSafeInteger(input.amountPaise) || input.amountPaise <= 0 || input.amountPaise > invoice.tax.totalPaise)
    throw new RangeError(`a credit note is for 1 paisa to the invoice's total (${invoice.tax.totalPaise}): ${input.amountPaise}`);
  if (input.date < invoice.date) throw new RangeError('a credit note cannot be dated before its invoice');
  const reason = input.reason.trim();
  if (!reason) throw new RangeError('a credit note states its reason');
  const tax = splitInclusivePrice(input.amountPaise, invoice.supplier.state, invoice.placeOfSupply);
  return {
    kind: 'credit-note',
    number: input.number,
    date: input.date,
    supplier: invoice.supplier,
    recipient: invoice.recipient,
    placeOfSupply: invoice.placeOfSupply,
    line: { description: invoice.line.description, sac: invoice.line.sac, amountPaise: input.amountPaise },
    tax,
    amountInWords: rupeesInWords(tax.totalPaise),
    reverseCharge: false,
    against: { number: invoice.number, date: invoice.date },
    reason,
  };
}

