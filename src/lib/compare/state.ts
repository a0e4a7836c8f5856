/**
 * The state of /compare, all of it in the URL (pure): which series, the range, the unit, the
 * view and the moving average. Reading is forgiving (a page never fails on a bad link: what
 * cannot be used is left out and said); writing gives one canonical query per state, so a
 * saved view and a shared link are the same text.
 *
 *   /compare?s=feedstock.naphtha.japan,historical.ppRaffia.mumbai&range=5Y&unit=inr_kg&view=indexed&ma=30
 *   /compare?s=…&range=custom&from=2019-04-01&to=2024-03-31
 */
import type { IsoDate } from '../dates.ts';
import { findSeries } from '../seriesCatalog.ts';
import { MAX_COMPARE_SERIES } from './comparison.ts';
import { customRange, isRangePreset, presetRange, type RangePreset, type ResolvedRange } from './ranges.ts';
import { isMovingAverage, isView, type CompareView, type MovingAverage } from './transforms.ts';
import { isCompareUnit, type CompareUnit } from './units.ts';

export interface CompareState {
  readonly ids: readonly string[];
  readonly range: RangePreset;
  /** Only for a custom range. */
  readonly from: IsoDate | null;
  readonly to: IsoDate | null;
  readonly unit: CompareUnit;
  readonly view: CompareView;
  readonly ma: MovingAverage;
}

export const DEFAULT_STATE: CompareState = { ids: [], range: '1Y', from: null, to: null, unit: 'native', view: 'prices', ma: 0 };

/** Series ids from a comma-separated list, in order, each once. */
export const splitIds = (text: string | null): string[] => [...new Set((text ?? '').split(',').map((id) => id.trim()).filter(Boolean))];

/**
 * The state a query asks for, and notes on what was left out. Besides the canonical
 * parameters, `add` (ids to append, as "Add to compare" sends) and `remove` are understood.
 */
export function readCompareState(params: URLSearchParams, today: IsoDate): { state: CompareState; notes: string[] } {
  const notes: string[] = [];
  const removed = new Set(splitIds(params.get('remove')));
  const wanted = [...new Set([...splitIds(params.get('s')), ...splitIds(params.get('add'))])].filter((id) => !removed.has(id));
  const known = wanted.filter((id) => {
    if (findSeries(id)) return true;
    notes.push(`There is no series “${id}”; it was left out.`);
    return false;
  });
  if (known.length > MAX_COMPARE_SERIES) notes.push(`A chart compares at most ${MAX_COMPARE_SERIES} series; the last ${known.length - MAX_COMPARE_SERIES} were left out.`);
  const ids = known.slice(0, MAX_COMPARE_SERIES);

  const rawRange = params.get('range') ?? DEFAULT_STATE.range;
  let range: RangePreset = isRangePreset(rawRange) ? rawRange : DEFAULT_STATE.range;
  if (!isRangePreset(rawRange)) notes.push(`“${rawRange}” is not a range; showing ${DEFAULT_STATE.range}.`);
  let from: IsoDate | null = null;
  let to: IsoDate | null = null;
  if (range === 'custom') {
    const custom = customRange(params.get('from'), params.get('to'), today);
    if (custom) ({ from, to } = custom);
    else {
      notes.push('The custom dates do not make a range (from must be a date on or before to, and not in the future); showing 1 year.');
      range = DEFAULT_STATE.range;
    }
  }

  const rawUnit = params.get('unit') ?? DEFAULT_STATE.unit;
  const unit = isCompareUnit(rawUnit) ? rawUnit : DEFAULT_STATE.unit;
  if (!isCompareUnit(rawUnit)) notes.push(`“${rawUnit}” is not a unit; showing each series as quoted.`);
  const rawView = params.get('view') ?? DEFAULT_STATE.view;
  const view = isView(rawView) ? rawView : DEFAULT_STATE.view;
  if (!isView(rawView)) notes.push(`“${rawView}” is not a view; showing prices.`);
  const rawMa = params.get('ma') ?? String(DEFAULT_STATE.ma);
  const ma = /^\d{1,2}$/.test(rawMa) && isMovingAverage(Number(rawMa)) ? (Number(rawMa) as MovingAverage) : DEFAULT_STATE.ma;
  if (ma !== Number(rawMa) || !/^\d{1,2}$/.test(rawMa)) notes.push(`“${rawMa}” is not a moving average; showing none.`);
  return { state: { ids, range, from, to, unit, view, ma }, notes };
}

/** The canonical query (without `?`): defaults left out, parameters in one order. */
export function compareSearch(state: CompareState): string {
  const parts: string[] = [];
  if (state.ids.length > 0) parts.push(`s=${state.ids.map(encodeURIComponent).join(',')}`);
  if (state.range !== DEFAULT_STATE.range) parts.push(`range=${state.range}`);
  if (state.range === 'custom' && state.from && state.to) parts.push(`from=${state.from}`, `to=${state.to}`);
  if (state.unit !== DEFAULT_STATE.unit) parts.push(`unit=${state.unit}`);
  if (state.view !== DEFAULT_STATE.view) parts.push(`view=${state.view}`);
  if (state.ma !== DEFAULT_STATE.ma) parts.push(`ma=${state.ma}`);
  return parts.join('&');
}

/** `/compare?…` of a state. */
export const compareHref = (state: CompareState): string => {
  const search = compareSearch(state);
  return search ? `/compare?${search}` : '/compare';
};

/** The dates a state shows, given today and the first date of its series (for "all"). */
export function resolveRange(state: CompareState, today: IsoDate, earliest?: IsoDate): ResolvedRange {
  if (state.range === 'custom' && state.from && state.to) return { from: state.from, to: state.to };
  return presetRange(state.range === 'custom' ? '1Y' : state.range, today, earliest);
}

/** The `GET /api/series` query of what a state shows (exports take the same query). */
export function seriesQuery(state: CompareState, range: ResolvedRange): string {
  const parts = [`ids=${state.ids.map(encodeURIComponent).join(',')}`, `from=${range.from}`, `to=${range.to}`, `unit=${state.unit}`];
  if (state.view !== 'prices') parts.push(`view=${state.view}`);
  if (state.ma !== 0) parts.push(`ma=${state.ma}`);
  return parts.join('&');
}

/** A state with the series list changed (for the add and remove links). */
export const withIds = (state: CompareState, ids: readonly string[]): CompareState => ({ ...state, ids: [...new Set(ids)].slice(0, MAX_COMPARE_SERIES) });

