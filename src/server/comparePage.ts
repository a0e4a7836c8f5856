/**
 * The /compare page's work, kept out of the page: read the state from the URL, answer its own
 * save and remove forms (plain HTML posts, so they work without JavaScript), and read the
 * comparison, its series' first dates (for "all") and the user's saved views.
 */
import { clampFrom, historyLimitMessage } from '../lib/access/history.ts';
import { historyReachOf } from '../lib/access/policy.ts';
import { unconvertible, type Comparison } from '../lib/compare/comparison.ts';
import { compareHref, readCompareState, resolveRange, seriesQuery, type CompareState } from '../lib/compare/state.ts';
import { isoDateOf, toDisplayDate, type IsoDate } from '../lib/dates.ts';
import { findSeries, type SeriesDef } from '../lib/seriesCatalog.ts';
import type { Correction } from '../lib/corrections.ts';
import { comparisonCorrections, readComparison } from './api/series.ts';
import { saveView, viewJson } from './api/views.ts';
import type { Session } from './auth/session.ts';
import type { Store } from './store/index.ts';

export interface ComparePage {
  readonly state: CompareState;
  readonly notes: readonly string[];
  readonly today: IsoDate;
  readonly series: readonly SeriesDef[];
  readonly comparison: Comparison | null;
  /** The /api/series query of what is shown (exports take it too); null without series. */
  readonly apiQuery: string | null;
  readonly views: readonly ReturnType<typeof viewJson>[];
  /** A problem with the save or remove form, shown beside it. */
  readonly formError: { readonly field: string; readonly message: string } | null;
  readonly saved: string | null;
  /** The corrected prices of each series in the range shown (src/lib/corrections.ts), by series id. */
  readonly corrections: ReadonlyMap<string, readonly Correction[]>;
}

export type ComparePageResult = { readonly kind: 'page'; readonly page: ComparePage; readonly status: number } | { readonly kind: 'redirect'; readonly to: string };

/** Answers a POST of the page's forms: `_action=save` (name, query) or `_action=remove` (id). */
async function handleForm(store: Store, session: Session, form: FormData): Promise<ComparePageResult | { kind: 'error'; field: string; message: string; status: number }> {
  const action = String(form.get('_action') ?? '');
  if (action === 'save') {
    const outcome = await saveView(store, session.uid, { name: String(form.get('name') ?? ''), query: String(form.get('query') ?? '') });
    // The saved query is canonical and names at least one series.
    if (outcome.ok) return { kind: 'redirect', to: `/compare?${outcome.view.query}&saved=${encodeURIComponent(outcome.view.name)}` };
    const { error } = (await outcome.response.json()) as { error: { field?: string; message: string } };
    return { kind: 'error', field: error.field ?? 'name', message: error.message, status: outcome.response.status };
  }
  if (action === 'remove') {
    const removed = await store.deleteSavedView(session.uid, String(form.get('id') ?? ''));
    if (!removed) return { kind: 'error', field: 'id', message: 'That view was already removed.', status: 404 };
    // Back to the comparison the list was shown beside (only ever a /compare address).
    const back = readCompareState(new URLSearchParams(String(form.get('back') ?? '')), isoDateOf(new Date())).state;
    return { kind: 'redirect', to: compareHref(back) };
  }
  return { kind: 'error', field: '_action', message: 'Unknown action.', status: 400 };
}

export async function comparePage(store: Store, session: Session, url: URL, request: Request): Promise<ComparePageResult> {
  const today = isoDateOf(new Date());
  let formError: ComparePage['formError'] = null;
  let status = 200;
  if (request.method === 'POST') {
    const form = await request.formData().catch(() => new FormData());
    const answered = await handleForm(store, session, form);
    if (answered.kind !== 'error') return answered;
    formError = { field: answered.field, message: answered.message };
    status = answered.status;
  }

  const read = readCompareState(url.searchParams, today);
  const notes = [...read.notes];
  const state = read.state;
  const series = state.ids.map((id) => findSeries(id)!);
  // A series the unit cannot take keeps its own unit (and axis); the others still convert.
  for (const { message } of unconvertible(series, state.unit)) notes.push(`${message} It is shown as quoted, on its own axis.`);

  let comparison: Comparison | null = null;
  let apiQuery: string | null = null;
  let corrections: ReadonlyMap<string, readonly Correction[]> = new Map();
  if (series.length > 0) {
    let earliest: IsoDate | undefined;
    if (state.range === 'all') {
      const extents = await Promise.all(series.map((s) => store.extent(s.id)));
      earliest = extents.map((e) => e?.first).filter((d): d is string => Boolean(d)).reduce<IsoDate | undefined>((a, b) => (a === undefined || b < a ? b : a), undefined);
    }
    const asked = resolveRange(state, today, earliest);
    // Not before the plan's history reach (the API refuses older `from`s): said in the notes.
    const reach = historyReachOf(session, new Date());
    const from = clampFrom(reach, asked.from);
    const range = from === asked.from ? asked : { from, to: asked.to < from ? today : asked.to };
    if (range !== asked) notes.push(`${historyLimitMessage(reach, Number(today.slice(0, 4)))} Showing from ${toDisplayDate(from)}.`);
    apiQuery = seriesQuery(state, range);
    comparison = await readComparison(store, { series, options: { range, unit: state.unit, view: state.view, ma: state.ma } });
    corrections = await comparisonCorrections(store, comparison);
  }

  const views = (await store.listSavedViews(session.uid)).map(viewJson);
  const saved = url.searchParams.get('saved');
  return { kind: 'page', status, page: { state, notes, today, series, comparison, apiQuery, views, formError, saved: saved ? saved.slice(0, 80) : null, corrections } };
}
