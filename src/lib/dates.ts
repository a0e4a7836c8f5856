/**
 * Dates. Stored as ISO `YYYY-MM-DD`; shaped to the legacy text forms only at the edges:
 * `DD-MM-YYYY` (user records), `dd/mm/yyyy` (chart keys) and "1st Jan 2025" (display).
 * Calendar days are India's: the market's day starts at midnight IST.
 */

export type IsoDate = string;

export const BUSINESS_TIME_ZONE = 'Asia/Kolkata';
/** How a time on BUSINESS_TIME_ZONE's clock is labelled for readers. */
export const BUSINESS_TIME_ZONE_NAME = 'IST';

const MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DASHED_RE = /^(\d{2})-(\d{2})-(\d{4})$/;
const SLASHED_RE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** True when y-m-d names a real calendar day (no 31st of April, no 29 Feb 2023). */
export function isRealDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (year < 1900 || year > 2999 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const iso = (year: number, month: number, day: number): IsoDate | null =>
  isRealDate(year, month, day) ? `${year}-${pad2(month)}-${pad2(day)}` : null;

/** Parses `YYYY-MM-DD`; null unless it is a real date. */
export function parseIsoDate(text: string): IsoDate | null {
  const m = ISO_RE.exec(text.trim());
  return m ? iso(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** Parses the user-record form `DD-MM-YYYY`; null unless it is a real date. */
export function parseDashedDate(text: string): IsoDate | null {
  const m = DASHED_RE.exec(text.trim());
  return m ? iso(Number(m[3]), Number(m[2]), Number(m[1])) : null;
}

/** Parses the chart-key form `dd/mm/yyyy`; null unless it is a real date. */
export function parseSlashedDate(text: string): IsoDate | null {
  const m = SLASHED_RE.exec(text.trim());
  return m ? iso(Number(m[3]), Number(m[2]), Number(m[1])) : null;
}

function parts(date: IsoDate): [year: number, month: number, day: number] {
  const m = ISO_RE.exec(date);
  if (!m) throw new RangeError(`not an ISO date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** `2025-01-05` → `05-01-2025` */
export function toDashedDate(date: IsoDate): string {
  const [y, m, d] = parts(date);
  return `${pad2(d)}-${pad2(m)}-${y}`;
}

/** `2025-01-05` → `05/01/2025` */
export function toSlashedDate(date: IsoDate): string {
  const [y, m, d] = parts(date);
  return `${pad2(d)}/${pad2(m)}/${y}`;
}

/** 1 → "1st", 2 → "2nd", 11 → "11th", 22 → "22nd". */
export function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

/** `2025-01-01` → "1st Jan 2025" */
export function toDisplayDate(date: IsoDate): string {
  const [y, m, d] = parts(date);
  return `${ordinal(d)} ${MONTHS_SHORT[m - 1]} ${y}`;
}

/** "23rd Nov": the display date without its year, where the year is said once nearby (a table of one year). */
export function toDisplayDayMonth(date: IsoDate): string {
  const [, m, d] = parts(date);
  return `${ordinal(d)} ${MONTHS_SHORT[m - 1]}`;
}

export const monthName = (month: number): string => MONTHS_SHORT[month - 1] ?? String(month);

// Building an Intl.DateTimeFormat costs ~100 µs; requests ask for "today" often: keep one per zone,
// with its last answer (formatting costs a few µs, and a gated request asks several times).
const dayFormats = new Map<string, { readonly format: Intl.DateTimeFormat; second: number; day: IsoDate }>();

/** The calendar day of an instant in India, as ISO. */
export function isoDateOf(instant: Date, timeZone: string = BUSINESS_TIME_ZONE): IsoDate {
  let zone = dayFormats.get(timeZone);
  if (!zone) {
    // en-CA formats as YYYY-MM-DD.
    zone = { format: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }), second: Number.NaN, day: '' };
    dayFormats.set(timeZone, zone);
  }
  // Every zone offset in the time-zone database is whole seconds, so a day never begins within
  // a second: instants of the same second share their day. (An invalid date is NaN: never kept.)
  const second = Math.floor(instant.getTime() / 1000);
  if (second !== zone.second) {
    zone.day = zone.format.format(instant);
    zone.second = second;
  }
  return zone.day;
}

let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** An instant on India's clock, as a reader sees it: `2026-11-24T09:35:00Z` → "24 Nov 2026, 15:05 IST". */
export function toDisplayDateTime(instant: Date): string {
  // Numeric parts on a 24-hour clock, read part by part: the locale's order does not matter.
  dateTimeFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: BUSINESS_TIME_ZONE,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const part: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of dateTimeFormat.formatToParts(instant)) part[type] = value;
  return `${Number(part.day)} ${monthName(Number(part.month))} ${part.year}, ${part.hour}:${part.minute} ${BUSINESS_TIME_ZONE_NAME}`;
}

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  const [fy, fm, fd] = parts(from);
  const [ty, tm, td] = parts(to);
  return Math.round((Date.UTC(ty, tm - 1, td) - Date.UTC(fy, fm - 1, fd)) / 86_400_000);
}

/** Adds whole days to an ISO date. */
export function addDays(date: IsoDate, days: number): IsoDate {
  const [y, m, d] = parts(date);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

export const yearOf = (date: IsoDate): number => parts(date)[0];
export const monthOf = (date: IsoDate): number => parts(date)[1];
