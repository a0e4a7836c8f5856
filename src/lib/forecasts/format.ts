/** How the forecast pages write numbers (src/lib/numbers.ts writes them): the site's Indian grouping, signed changes, shares. */
import { monthName, type IsoDate } from '../dates.ts';
import { formatNumber, formatPercent, formatPercentFigure, formatShare } from '../numbers.ts';
import { DIRECTION_LABELS, type Direction, type Forecast } from './model.ts';

/** "+2.4%", "−0.8%", "0.0%" (a true minus sign, as the price screens write it). */
export const signedPct = (value: number, digits = 1): string => formatPercent(value, digits);

/** A share 0–1 as a whole percentage: "56%"; "—" without calls. */
export const sharePct = (value: number | null): string => (value === null ? '—' : formatShare(value));

/** A percentage as it is: "2.8%"; "—" for none. */
export const plainPct = (value: number | null, digits = 1): string => (value === null ? '—' : formatPercentFigure(value, digits));

/**
 * Decimals a price range is written with: none from 1,000, one from 100, two below (a baseline's
 * interval ends are estimates: 1,022.43 says more than it knows; desk ranges are on round steps anyway).
 */
export const rangeDigits = (value: number): number => (Math.abs(value) >= 1000 ? 0 : Math.abs(value) >= 100 ? 1 : 2);

/** "1,150–1,190". */
export const rangeText = (f: Pick<Forecast, 'low' | 'high'>): string => {
  const digits = rangeDigits(f.high);
  return `${formatNumber(f.low, digits)}–${formatNumber(f.high, digits)}`;
};

/** "+1.0% to +3.5%". */
export const changeRangeText = (lowPct: number, highPct: number): string => `${signedPct(lowPct)} to ${signedPct(highPct)}`;

export const directionText = (direction: Direction): string => DIRECTION_LABELS[direction];

/** The arrow a direction is shown with (beside its word, never alone). */
export const directionArrow = (direction: Direction): string => (direction === 'up' ? '▲' : direction === 'down' ? '▼' : '▶');

/** A date in a narrow table: "4 Dec 26" (with the year), "4 Dec" (without). */
export function shortDate(date: IsoDate, withYear = true): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${d} ${monthName(m)}${withYear ? ` ${String(y).slice(2)}` : ''}`;
}
