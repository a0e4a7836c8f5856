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
