/**
 * Days and hours as delivery messages write them, in English and Hindi: "Tue 24 Nov 2026",
 * "मंगलवार, 24 नवंबर 2026", "24 Nov", "09:00 IST". Month and weekday names are written here, not
 * taken from the runtime's locale data, so a message reads the same on every Node build (and its
 * snapshot tests hold).
 */
import { monthOf, yearOf, type IsoDate } from '../dates.ts';
import type { DeliveryLanguage } from './language.ts';

const MONTHS: Readonly<Record<DeliveryLanguage, readonly string[]>> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  hi: ['जनवरी', 'फ़रवरी', 'मार्च', 'अप्रैल', 'मई', 'जून', 'जुलाई', 'अगस्त', 'सितंबर', 'अक्टूबर', 'नवंबर', 'दिसंबर'],
};

const WEEKDAYS: Readonly<Record<DeliveryLanguage, readonly string[]>> = {
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  hi: ['रविवार', 'सोमवार', 'मंगलवार', 'बुधवार', 'गुरुवार', 'शुक्रवार', 'शनिवार'],
};

const dayOfMonth = (date: IsoDate): number => Number(date.slice(8, 10));
const weekdayOf = (date: IsoDate): number => new Date(`${date}T00:00:00Z`).getUTCDay();

/** "24 Nov" / "24 नवंबर"; with the year when it is not `today`'s year. */
export function shortDay(date: IsoDate, language: DeliveryLanguage, today: IsoDate = date): string {
  const text = `${dayOfMonth(date)} ${MONTHS[language][monthOf(date) - 1]}`;
  return yearOf(date) === yearOf(today) ? text : `${text} ${yearOf(date)}`;
}

/** "Tue 24 Nov 2026" / "मंगलवार, 24 नवंबर 2026": the day a daily update is for. */
export function fullDay(date: IsoDate, language: DeliveryLanguage): string {
  const weekday = WEEKDAYS[language][weekdayOf(date)];
  const rest = `${dayOfMonth(date)} ${MONTHS[language][monthOf(date) - 1]} ${yearOf(date)}`;
  return language === 'hi' ? `${weekday}, ${rest}` : `${weekday} ${rest}`;
}

/** "09:00 IST" (the same in both languages: that is how Indian trade writes times). */
export const hourText = (hour: number): string => `${String(((hour % 24) + 24) % 24).padStart(2, '0')}:00 IST`;

/** Month number (1–12) of a month name or its first three letters, English; null otherwise. */
export function monthNumber(word: string): number | null {
  const prefix = word.toLowerCase().slice(0, 3);
  const index = MONTHS.en.findIndex((m) => m.toLowerCase() === prefix);
  if (index >= 0 && (word.length === 3 || 'january february march april may june july august september october november december sept'.split(' ').includes(word.toLowerCase()))) return index + 1;
  const hindi = MONTHS.hi.findIndex((m) => m.replace('़', '') === word.replace('़', ''));
  return hindi >= 0 ? hindi + 1 : null;
}
