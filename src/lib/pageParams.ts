/**
 * Reading a data page's query parameters (pure): a bad or unknown value falls back to the
 * default instead of failing, so `?year=abc` shows the current year, never a 500.
 */
import { yearOptions } from './years.ts';

/** `raw` when it is one of the selector's years, else `fallback`. */
export function pickYear(raw: string | null, currentYear: number, fallback: number = currentYear, startYear?: number): number {
  if (raw === null || !/^\d{4}$/.test(raw.trim())) return fallback;
  const year = Number(raw.trim());
  return yearOptions(currentYear, startYear).includes(year) ? year : fallback;
}

/** 1–12, else `fallback`. */
export function pickMonth(raw: string | null, fallback: number): number {
  if (raw === null || !/^\d{1,2}$/.test(raw.trim())) return fallback;
  const month = Number(raw.trim());
  return month >= 1 && month <= 12 ? month : fallback;
}

/** The choice whose key matches `raw` (case-insensitive), else the first. */
export function pickChoice<T>(raw: string | null, choices: readonly T[], keyOf: (choice: T) => string): T | undefined {
  const wanted = raw?.trim().toLowerCase();
  return (wanted ? choices.find((c) => keyOf(c).toLowerCase() === wanted) : undefined) ?? choices[0];
}

/** Indian grouping, at most 2 decimals: 1,23,456.5 */
export const formatNumber = (value: number, digits = 2): string =>
  value.toLocaleString('en-IN', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

/** "+1.50 (+1.23%)" style parts with a direction for colouring. */
export function describeChange(change: number | null, changePct: number | null): { text: string; tone: 'up' | 'down' | 'flat' } {
  if (change === null) return { text: '—', tone: 'flat' };
  const sign = change > 0 ? '+' : change < 0 ? '−' : '';
  const pct = changePct === null ? '' : ` (${sign}${formatNumber(Math.abs(changePct))}%)`;
  return { text: `${sign}${formatNumber(Math.abs(change))}${pct}`, tone: change > 0 ? 'up' : change < 0 ? 'down' : 'flat' };
}
