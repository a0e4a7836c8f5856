/** How many years back the data screens' year selector reaches. */
export const YEARS_BACK = 12;

/**
 * The year selector's options, newest first: the current year down to twelve years back,
 * or down to `startYear` when one is given (a series that starts later has no older years).
 */
export function yearOptions(currentYear: number, startYear?: number): number[] {
  const oldest = startYear === undefined ? currentYear - YEARS_BACK : Math.min(startYear, currentYear);
  const years: number[] = [];
  for (let year = currentYear; year >= oldest; year--) years.push(year);
  return years;
}
