/**
 * Numbers of tax invoices and credit notes (CGST Rules 2017, rules 46(b) and 53(1A)(c)): at most
 * sixteen characters of letters, digits, "-" and "/", consecutive and unique within a financial
 * year (1 April to 31 March). One series per kind of document and financial year:
 *
 *   PI/26-27/00001, PI/26-27/00002, …   tax invoices of FY 2026-27
 *   CN/26-27/00001, …                    credit notes of FY 2026-27
 *
 * The sequence restarts at 1 on 1 April. Which sequence comes next is the store's counter
 * (`counterKey`), taken in the same transaction that records the document, so numbers are
 * consecutive across instances and restarts (src/server/store/documents/invoices.ts).
 */
import { monthOf, parseIsoDate, yearOf, type IsoDate } from '../dates.ts';

export type DocumentSeries = 'invoice' | 'credit-note';

/** The series' letters (PolyIndex Invoice, Credit Note). */
export const SERIES_PREFIX: Readonly<Record<DocumentSeries, string>> = { invoice: 'PI', 'credit-note': 'CN' };

export const MAX_DOCUMENT_NUMBER_LENGTH = 16;
const ALLOWED = /^[A-Za-z0-9/-]+$/;
/** The sequence is written with at least this many digits (five: 99,999 a year before it widens). */
const SEQUENCE_DIGITS = 5;

export interface FinancialYear {
  /** The calendar year it starts in (FY 2026-27 → 2026). */
  readonly startYear: number;
  /** "2026-27". */
  readonly label: string;
  readonly from: IsoDate;
  readonly to: IsoDate;
}

export function financialYearStarting(startYear: number): FinancialYear {
  if (!Number.isInteger(startYear) || startYear < 2017 || startYear > 9998) throw new RangeError(`not a GST financial year: ${startYear}`);
  return { startYear, label: `${startYear}-${String((startYear + 1) % 100).padStart(2, '0')}`, from: `${startYear}-04-01`, to: `${startYear + 1}-03-31` };
}

/** The financial year of a date (India's calendar day: callers pass the IST date). */
export function financialYearOf(date: IsoDate): FinancialYear {
  if (parseIsoDate(date) !== date) throw new RangeError(`not a date: ${date}`);
  return financialYearStarting(monthOf(date) >= 4 ? yearOf(date) : yearOf(date) - 1);
}

/** "26-27": the year part of a document number. */
const shortYear = (fy: FinancialYear): string => fy.label.slice(2);

/** The largest sequence a number of at most 16 characters can carry in this series. */
export function maxSequence(series: DocumentSeries): number {
  const fixed = `${SERIES_PREFIX[series]}/00-00/`.length;
  return 10 ** (MAX_DOCUMENT_NUMBER_LENGTH - fixed) - 1;
}

/** The number of the `sequence`-th document of a series in a financial year. */
export function documentNumber(series: DocumentSeries, fy: FinancialYear, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1 || sequence > maxSequence(series)) throw new RangeError(`sequence out of range for ${series}: ${sequence}`);
  return `${SERIES_PREFIX[series]}/${shortYear(fy)}/${String(sequence).padStart(SEQUENCE_DIGITS, '0')}`;
}

export interface ParsedDocumentNumber {
  readonly series: DocumentSeries;
  readonly fy: FinancialYear;
  readonly sequence: number;
}

const PATTERN = /^(PI|CN)\/(\d{2})-(\d{2})\/(\d{5,})$/;

/** A number this module wrote, read back; null for anything else. */
export function parseDocumentNumber(text: string): ParsedDocumentNumber | null {
  if (!isValidDocumentNumber(text)) return null;
  const m = PATTERN.exec(text);
  if (!m) return null;
  const start = 2000 + Number(m[2]);
  if ((start + 1) % 100 !== Number(m[3]) || start < 2017) return null;
  const series: DocumentSeries = m[1] === 'PI' ? 'invoice' : 'credit-note';
  const sequence = Number(m[4]);
  if (sequence < 1 || String(sequence).padStart(SEQUENCE_DIGITS, '0') !== m[4]) return null;
  return { series, fy: financialYearStarting(start), sequence };
}

/** Rule 46(b)'s shape: 1–16 characters, letters, digits, "-" and "/" only. */
export const isValidDocumentNumber = (text: string): boolean => text.length >= 1 && text.length <= MAX_DOCUMENT_NUMBER_LENGTH && ALLOWED.test(text);

/** The store counter that hands out a series' sequences in one financial year: "invoice-2026-27" (a document id: no "/"). */
export const counterKey = (series: DocumentSeries, fy: FinancialYear): string => `${series}-${fy.label}`;
