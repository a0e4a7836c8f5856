/**
 * Threshold alerts: when a price write makes an alert fire. An alert fires once per crossing:
 * `above`/`below` when the latest price moves from not reaching the value to reaching it
 * (≥ for above, ≤ for below; moving back re-arms it), `move` once per price date whose change
 * on the previous price is at least `value` per cent either way.
 */
export type AlertKind = 'above' | 'below' | 'move';
export const ALERT_KINDS: readonly AlertKind[] = ['above', 'below', 'move'];

export interface Quote {
  readonly date: string;
  readonly value: number;
}

/** What an alert remembers between writes. */
export interface AlertState {
  /** above/below: whether the latest price reached the value; null before the first look. */
  readonly reached: boolean | null;
  /** move: the price date it last fired for. */
  readonly firedFor: string | null;
  /** How many times it fired (numbers the crossings). */
  readonly crossings: number;
}

/** The per-cent day move a `move` alert may ask for, inclusive (docs/delivery.md). */
export const MOVE_PERCENT = { min: 0.1, max: 50 } as const;

/** Null when `value` is a `move` alert's per-cent threshold, else why not (the one check the endpoint and its docs share). */
export function moveProblem(value: number): string | null {
  return Number.isFinite(value) && value >= MOVE_PERCENT.min && value <= MOVE_PERCENT.max
    ? null
    : `A move is a per-cent change between ${MOVE_PERCENT.min} and ${MOVE_PERCENT.max}.`;
}

export const INITIAL_ALERT_STATE: AlertState = { reached: null, firedFor: null, crossings: 0 };

/** The change of `latest` on `previous`, in per cent (null without a previous price or from 0). */
export function percentChange(latest: Quote, previous: Quote | null): number | null {
  if (!previous || previous.value === 0) return null;
  return ((latest.value - previous.value) / previous.value) * 100;
}

export function reaches(kind: 'above' | 'below', threshold: number, value: number): boolean {
  return kind === 'above' ? value >= threshold : value <= threshold;
}

export interface AlertStep {
  readonly state: AlertState;
  /** The crossing number when this step fires (1, 2, …), else null. */
  readonly fires: number | null;
}

/**
 * The next state of an alert after its instrument's latest price is `latest` (with `previous`,
 * the point before it). `arming` is the first look, at creation: it records where the price is
 * and never fires (an alert set while the price is already past its value waits for the next crossing).
 */
export function stepAlert(kind: AlertKind, threshold: number, state: AlertState, latest: Quote | null, previous: Quote | null, arming = false): AlertStep {
  if (!latest) return { state, fires: null };
  if (kind === 'move') {
    const change = percentChange(latest, previous);
    const hit = change !== null && Math.abs(change) >= threshold;
    if (arming) return { state: { ...state, firedFor: hit ? latest.date : null }, fires: null };
    if (!hit || state.firedFor === latest.date) return { state, fires: null };
    const crossings = state.crossings + 1;
    return { state: { ...state, firedFor: latest.date, crossings }, fires: crossings };
  }
  const reached = reaches(kind, threshold, latest.value);
  if (arming || state.reached === null) return { state: { ...state, reached }, fires: null };
  if (reached === state.reached) return { state, fires: null };
  if (!reached) return { state: { ...state, reached }, fires: null };
  const crossings = state.crossings + 1;
  return { state: { ...state, reached, crossings }, fires: crossings };
}
