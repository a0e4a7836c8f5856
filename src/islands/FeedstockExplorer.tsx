/**
 * The feedstock chart with Daily / Weekly / Monthly / Yearly averages fetched from
 * /api/feedstock. The daily chart is drawn by the server (`children`, with the light pointer
 * layer over it); a period change fetches, shows a skeleton meanwhile, clears the loading flag
 * whatever happens, and offers Retry on failure. The charting library is loaded only then.
 */
import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { encodeLines } from '../lib/chartGeometry.ts';
import { parseSlashedDate } from '../lib/dates.ts';
import { periodTypes, sortAndRealign, toChartLine, type ChartLine, type PeriodType } from '../lib/series.ts';
import ChartOverlay from './ChartOverlay.tsx';

const PriceChart = lazy(() => import('./PriceChart.tsx'));

export interface FeedstockExplorerProps {
  readonly name: string;
  readonly country: string;
  /** undefined = the last twelve months. */
  readonly year?: number | undefined;
  readonly unit: string;
  readonly title: string;
  readonly initial: ChartLine;
  /** The chart's height (src/components/Chart.astro). */
  readonly height: number;
  /** The server-drawn SVG of `initial`. */
  readonly children?: ReactNode;
}

type State =
  | { readonly kind: 'initial'; readonly line: ChartLine }
  | { readonly kind: 'ready'; readonly line: ChartLine }
  | { readonly kind: 'loading'; readonly line: ChartLine; readonly shown: 'initial' | 'ready' }
  | { readonly kind: 'failed'; readonly line: ChartLine; readonly message: string; readonly shown: 'initial' | 'ready' };

/** Which chart is on screen: the server's drawing until the first successful fetch. */
const shownOf = (state: State): 'initial' | 'ready' => ('shown' in state ? state.shown : state.kind === 'ready' ? 'ready' : 'initial');

interface FeedstockResponse {
  data?: { key?: unknown; value?: unknown };
}

export default function FeedstockExplorer({ name, country, year, unit, title, initial, height, children }: FeedstockExplorerProps) {
  const [type, setType] = useState<PeriodType>('Daily');
  const [state, setState] = useState<State>({ kind: 'initial', line: initial });
  const shownData = useMemo(() => encodeLines([state.line]), [state.line]);
  const request = useRef(0);

  const load = useCallback(
    async (next: PeriodType) => {
      setType(next);
      const id = ++request.current;
      setState((s) => ({ kind: 'loading', line: s.line, shown: shownOf(s) }));
      const query = new URLSearchParams({ name, country, type: next });
      if (year !== undefined) query.set('year', String(year));
      let outcome: { line: ChartLine } | { message: string };
      try {
        const response = await fetch(`/api/feedstock?${query}`, { headers: { Accept: 'application/json' } });
        if (!response.ok) throw new Error(`The server answered ${response.status}.`);
        const body = (await response.json()) as FeedstockResponse;
        const keys = Array.isArray(body.data?.key) ? (body.data.key as unknown[]).map(String) : null;
        const values = Array.isArray(body.data?.value) ? (body.data.value as unknown[]).map(Number) : null;
        if (!keys || !values) throw new Error('The answer was not a price series.');
        const points = sortAndRealign(keys.map((k) => parseSlashedDate(k) ?? k), values);
        outcome = { line: toChartLine(initial.id, points) };
      } catch (error) {
        outcome = { message: error instanceof Error ? error.message : 'The prices could not be loaded.' };
      }
      // Whatever the outcome, the loading state ends here (for the newest request; an older
      // answer arriving late is dropped). A failure keeps the last chart and offers Retry.
      if (id === request.current) {
        setState((s) => ('line' in outcome ? { kind: 'ready', line: outcome.line } : { kind: 'failed', line: s.line, message: outcome.message, shown: shownOf(s) }));
      }
    },
    [name, country, year, initial],
  );

  const skeleton = <div className="chart-skeleton" data-testid="chart-skeleton" aria-label="Loading prices" role="progressbar" />;
  return (
    <div className="feedstock-explorer" data-testid="feedstock-explorer" aria-busy={state.kind === 'loading'}>
      <div className="period-tabs" role="group" aria-label="Average per period">
        {periodTypes.map((t) => (
          <button
            key={t}
            type="button"
            className={t === type ? 'btn btn-small is-active' : 'btn btn-small'}
            aria-pressed={t === type}
            onClick={() => void load(t)}
          >
            {t}
          </button>
        ))}
      </div>
      {state.kind === 'loading' ? (
        skeleton
      ) : shownOf(state) === 'initial' ? (
        <ChartOverlay data={shownData} unit={unit}>
          {children}
        </ChartOverlay>
      ) : (
        <Suspense fallback={skeleton}>
          <ChartOverlay data={shownData} unit={unit}>
            <PriceChart lines={[state.line]} unit={unit} title={`${title}, ${type.toLowerCase()}`} height={height} />
          </ChartOverlay>
        </Suspense>
      )}
      {state.kind === 'failed' && (
        <div className="chart-error" role="alert" data-testid="chart-error">
          <span>Could not load the {type.toLowerCase()} prices. {state.message}</span>{' '}
          <button type="button" className="btn btn-small" onClick={() => void load(type)}>
            Retry
          </button>
        </div>
      )}
    </div>
  );
}
