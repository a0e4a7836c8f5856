/** How the forecast pages write numbers: the site's Indian grouping, signed changes, shares. */
import { formatNumber } from '../pageParams.ts';
import { DIRECTION_LABELS, type Direction, type Forecast } from './model.ts';

/** "+2.4%", "−0.8%", "0.0%" (a true minus sign, as the price screens write it). */
export function signedPct(value: number, digits = 1): string {
  const rounded = Number(value.toFixed(digits));
  const sign = rounded > 0 ? '+' : rounded < 0 ? '−' : '';
  return `${sign}${Math.abs(rounded).toFixed(digits)}%`;
}

/** A share 0–1 as a whole percentage: "56%"; "—" without calls. */
export const sharePct = (value: number | null): string => (value === null ? '—' : `${Math.round(value * 100)}%`);

/** A percentage as it is: "2.8%"; "—" for none. */
export const plainPct = (value: number | null, digits = 1): string => (value === null ? '—' : `${value.toFixed(digits)}%`);

/** "1,150–1,190". */
export const rangeText = (f: Pick<Forecast, 'low' | 'high'>): string => `${formatNumber(f.low)}–${formatNumber(f.high)}`;

/** "+1.0% to +3.5%". */
export const changeRangeText = (lowPct: number, highPct: number): string => `${signedPct(lowPct)} to ${signedPct(highPct)}`;

export const directionText = (direction: Direction): string => DIRECTION_LABELS[direction];

/** The arrow a direction is shown with (beside its word, never alone). */
export const directionArrow = (direction: Direction): string => (direction === 'up' ? '▲' : direction === 'down' ? '▼' : '▶');
