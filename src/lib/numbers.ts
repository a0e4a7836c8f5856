/**
 * How numbers are written, in one place (issue 20): every page, table, export and API answer
 * rounds and formats a price here.
 *
 * - A price has the decimal places of its quoting (a unit's, or fewer where a series' basis
 *   says so: src/lib/units.ts, src/lib/basis.ts), always all of them in a page ("104.50").
 * - Rupee amounts use Indian digit grouping (1,23,456.50); US$ and RMB amounts international
 *   grouping (1,234,567).
 * - Rounding happens at the edge: values are stored as typed, and every number that leaves for
 *   a reader (JSON, CSV, XLSX, HTML) goes through `roundTo`, which rounds on the decimal digits
 *   (so 90.10000000000001 is written 90.1 and 1.005 rounds to 1.01, not 1.00).
 * - Money is held in whole paise (plans, payments, GST documents) and written here too:
 *   `formatPaise` for a page ("₹5,500", "₹4,661.02"), `formatInvoiceAmount` for a GST document.
 * - No other module formats a number (tests/unit/numberFormatting.test.ts scans the code): a
 *   new kind of figure gets a function here, named for what it writes.
 */
import { UNIT_FACTS, type Currency, type PriceUnit } from './units.ts';

/** What decides how a price is written: its unit, and the decimals its basis quotes it in when fewer than the unit's. */
export interface Quoting {
  readonly unit: PriceUnit;
  readonly decimals?: number | undefined;
}

export const decimalsOf = (quoting: Quoting): number => quoting.decimals ?? UNIT_FACTS[quoting.unit].decimals;

/**
 * `value` rounded half away from zero to `decimals` places of its decimal writing (not of its
 * binary approximation), so no float noise survives: roundTo(0.1 + 0.2, 2) === 0.3.
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const text = String(abs);
  const rounded = text.includes('e') ? Math.round(abs * 10 ** decimals) / 10 ** decimals : Number(`${Math.round(Number(`${text}e${decimals}`))}e-${decimals}`);
  // No "-0": a change that rounds to nothing is 0.
  return rounded === 0 ? 0 : Math.sign(value) * rounded;
}

/** A price as an API answer or a file carries it: a plain number at its quoting's decimals. */
export const priceValue = (value: number, quoting: Quoting): number => roundTo(value, decimalsOf(quoting));

/** Figures that are not prices (percentages, index points): two decimals. */
export const FIGURE_DECIMALS = 2;

/** Converted values (a comparison in another unit) keep four decimals, as the conversions compute them. */
export const CONVERTED_DECIMALS = 4;

const localeOf = (currency: Currency): string => (currency === 'INR' ? 'en-IN' : 'en-US');

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(locale: string, min: number, max: number): Intl.NumberFormat {
  const key = `${locale}|${min}|${max}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
    formatters.set(key, f);
  }
  return f;
}

/** A price for a page: grouping of its currency, exactly its quoting's decimals. "1,085.00", "1,23,456.50". */
export function formatPrice(value: number, quoting: Quoting): string {
  const decimals = decimalsOf(quoting);
  return formatter(localeOf(UNIT_FACTS[quoting.unit].currency), decimals, decimals).format(roundTo(value, decimals));
}

/** A price with its unit as a trader writes it: ₹104.50/kg, US$1,085.00/t, US$80.12/bbl, ₹90.1200/US$, RMB 7,450/t. */
export function priceWithUnit(value: number, quoting: Quoting): string {
  const facts = UNIT_FACTS[quoting.unit];
  const sign = value < 0 ? '−' : '';
  return `${sign}${facts.symbol}${formatPrice(Math.abs(value), quoting)}/${facts.per}`;
}

/** Any other figure (a percentage, an index, a count): Indian grouping, up to `decimals` places, none forced. */
export const formatNumber = (value: number, decimals: number = FIGURE_DECIMALS): string => formatter('en-IN', 0, decimals).format(roundTo(value, decimals));

const signOf = (value: number): string => (value > 0 ? '+' : value < 0 ? '−' : '');

/**
 * "+1.23%" (a percentage change, two decimals unless said; the minus is a real minus sign, and a
 * change that rounds to nothing has no sign: "0.0%"). The forecasts write theirs with one: "+2.4%".
 */
export const formatPercent = (pct: number, decimals: number = FIGURE_DECIMALS): string =>
  `${signOf(roundTo(pct, decimals))}${formatter('en-IN', decimals, decimals).format(roundTo(Math.abs(pct), decimals))}%`;

/** The size of a percentage change, without its sign, where an arrow or a word says the direction: "0.48%" ("▼2.50 (0.48%)", "fell 2.4%"). */
export const formatPercentSize = (pct: number, decimals: number = FIGURE_DECIMALS): string => `${formatter('en-IN', decimals, decimals).format(roundTo(Math.abs(pct), decimals))}%`;

/** A figure that is a percentage as it is (an error, a width): "2.8%", "−0.5%", all its decimals. */
export const formatPercentFigure = (value: number, decimals: number = FIGURE_DECIMALS): string => `${value < 0 && roundTo(value, decimals) !== 0 ? '−' : ''}${formatPercentSize(value, decimals)}`;

/** A share 0–1 as a whole percentage: 0.555 → "56%" (a hit rate, a share of calls). */
export const formatShare = (fraction: number): string => `${formatNumber(roundTo(fraction * 100, 0), 0)}%`;

/** A threshold a person set, as a percentage: "2.5%", "3%" (up to two decimals, none forced). */
export const formatPercentThreshold = (pct: number): string => `${formatNumber(pct)}%`;

/** A figure with exactly `decimals` places (a specific gravity, 0.7370): Indian grouping. */
export const formatFixed = (value: number, decimals: number): string => `${value < 0 && roundTo(value, decimals) !== 0 ? '−' : ''}${formatter('en-IN', decimals, decimals).format(roundTo(Math.abs(value), decimals))}`;

/** A count of things (characters, rows, requests): whole, Indian grouping ("1,20,000"). */
export const formatCount = (count: number): string => formatNumber(count, 0);

export type Tone = 'up' | 'down' | 'flat';

/**
 * A change in a price's decimals with its percentage, and its direction for colouring:
 * "+1.50 (+1.23%)", "−2.00 (−0.50%)", "—" without a previous price. With no quoting (a figure
 * that is not a price, e.g. an index), up to two decimals.
 */
export function formatChange(change: number | null, changePct: number | null, quoting?: Quoting): { text: string; tone: Tone } {
  if (change === null) return { text: '—', tone: 'flat' };
  const rounded = quoting ? priceValue(change, quoting) : roundTo(change, FIGURE_DECIMALS);
  const magnitude = quoting ? formatPrice(Math.abs(rounded), quoting) : formatNumber(Math.abs(rounded));
  const pct = changePct === null ? '' : ` (${formatPercent(changePct)})`;
  return { text: `${signOf(rounded)}${magnitude}${pct}`, tone: rounded > 0 ? 'up' : rounded < 0 ? 'down' : 'flat' };
}

/** Rupees with Indian grouping and paise: ₹1,23,456.50 (amounts of money, not prices per unit). */
export const formatRupees = (value: number): string => `${value < 0 ? '−' : ''}₹${formatter('en-IN', 2, 2).format(roundTo(Math.abs(value), 2))}`;

function wholePaise(paise: number): { sign: boolean; rupees: string; paise: string } {
  const abs = Math.abs(paise);
  return { sign: paise < 0, rupees: formatter('en-IN', 0, 0).format(Math.floor(abs / 100)), paise: String(abs % 100).padStart(2, '0') };
}

/**
 * An amount of money held in whole paise, for a page or a message (plan prices, payments, the
 * account's charges): "₹5,500", "₹1,27,11,864"; paise only when there are some: "₹4,661.02".
 */
export function formatPaise(paise: number): string {
  const amount = wholePaise(roundTo(paise, 0));
  return `${amount.sign ? '−' : ''}₹${amount.rupees}${amount.paise === '00' ? '' : `.${amount.paise}`}`;
}

/**
 * An amount on a GST tax invoice or credit note: no symbol (the column says ₹), Indian grouping,
 * always the paise ("1,27,118.64", "5,500.00"); a negative amount with a hyphen-minus, as the
 * documents have always printed it.
 */
export function formatInvoiceAmount(paise: number): string {
  // A tax document's figures are computed in whole paise: anything else is a bug, not a rounding.
  if (!Number.isSafeInteger(paise)) throw new RangeError(`not a whole number of paise: ${paise}`);
  const amount = wholePaise(paise);
  return `${amount.sign ? '-' : ''}${amount.rupees}.${amount.paise}`;
}

/**
 * A number as a file carries it for a program (a CSV cell, an API's text): `.` decimals, no
 * grouping, never an exponent (1e-7 is written 0.0000001); nothing for what is not a number.
 */
export function plainNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(10).replace(/\.?0+$/, '') : text;
}

/** What a range is written from: the low and the high (src/lib/quotes.ts), absent for a single price. */
interface Quoted {
  readonly value: number;
  readonly low?: number | undefined;
  readonly high?: number | undefined;
}

/** A range for a page: "1,005–1,025" (an en dash, no spaces), each end at its quoting's decimals. */
export const formatRange = (low: number, high: number, quoting: Quoting): string => `${formatPrice(low, quoting)}–${formatPrice(high, quoting)}`;

/** A price for a page, as quoted: "1,005–1,025" for a range, "104.50" for a single value. */
export const formatQuote = (quote: Quoted, quoting: Quoting): string =>
  quote.low !== undefined && quote.high !== undefined ? formatRange(quote.low, quote.high, quoting) : formatPrice(quote.value, quoting);

/** A price as quoted with its unit: "US$1,005–1,025/t", "₹104.50/kg". */
export function quoteWithUnit(quote: Quoted, quoting: Quoting): string {
  if (quote.low === undefined || quote.high === undefined) return priceWithUnit(quote.value, quoting);
  const facts = UNIT_FACTS[quoting.unit];
  return `${facts.symbol}${formatRange(quote.low, quote.high, quoting)}/${facts.per}`;
}
