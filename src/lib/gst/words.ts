/**
 * An amount in words, Indian numbering (thousand, lakh, crore), as a tax invoice states its total:
 * "Rupees Fifteen Thousand Only", "Rupees Four Thousand Six Hundred Sixty One and Two Paise Only".
 * The words of each whole number come from `to-words` (en-IN); rupees and paise are worded
 * separately from integers, so no float rounding can change a paisa. Above 99 crore the count
 * of crores is itself worded ("One Hundred Crore"), as Indian invoices write it, not "Arab".
 */
import { ToWords } from 'to-words';

const toWords = new ToWords({ localeCode: 'en-IN' });
const CRORE = 10_000_000;

/** A whole number ≥ 0 in Indian words: 12345678 → "One Crore Twenty Three Lakh Forty Five Thousand Six Hundred Seventy Eight". */
export function wholeNumberInWords(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a whole number ≥ 0: ${value}`);
  if (value < 100 * CRORE) return toWords.convert(value);
  const crores = Math.floor(value / CRORE);
  const rest = value % CRORE;
  return `${wholeNumberInWords(crores)} Crore${rest === 0 ? '' : ` ${toWords.convert(rest)}`}`;
}

/** Paise in words as a rupee amount: 466169 → "Rupees Four Thousand Six Hundred Sixty One and Sixty Nine Paise Only". */
export function rupeesInWords(paise: number): string {
  if (!Number.isSafeInteger(paise) || paise < 0) throw new RangeError(`not a whole number of paise ≥ 0: ${paise}`);
  const rupees = Math.floor(paise / 100);
  const rest = paise % 100;
  if (rest === 0) return `Rupees ${wholeNumberInWords(rupees)} Only`;
  if (rupees === 0) return `${wholeNumberInWords(rest)} Paise Only`;
  return `Rupees ${wholeNumberInWords(rupees)} and ${wholeNumberInWords(rest)} Paise Only`;
}
