/**
 * The desk's publication of a forecast (the admin form and POST /api/admin/forecasts): the
 * input read with `DeskForecastInput`, then checked against the series' last price and its flat
 * band (`checkAgainstBase`) and, for a correction, against the call it corrects
 * (`checkSupersedes`); the record made by `deskForecastOf` and written once with its audit entry.
 * Never edited afterwards: a correction is a new forecast naming the one it corrects.
 */
import { randomUUID } from 'node:crypto';
import { addDays, isoDateOf } from '../../lib/dates.ts';
import { checkAgainstBase, checkSupersedes, deskForecastOf, type DeskForecastInput, type InputRefusal } from '../../lib/forecasts/input.ts';
import { flatBandPct, type Forecast } from '../../lib/forecasts/model.ts';
import { findSeries } from '../../lib/seriesCatalog.ts';
import type { AuditActor } from '../store/audit.ts';
import type { Store } from '../store/index.ts';

/** Two years of prices: the flat band's look-back. */
const LOOKBACK_DAYS = 740;

export type PublishOutcome =
  | { readonly ok: true; readonly forecast: Forecast; readonly auditId: number }
  | { readonly ok: false; readonly status: 400 | 409; readonly refusal: InputRefusal };

/** A desk forecast's id: its series, horizon and base date, and a random tail (two calls from one base are two calls). */
export const deskForecastId = (f: Pick<Forecast, 'seriesId' | 'horizon' | 'baseDate'>): string => `desk.${f.seriesId}.${f.horizon}.${f.baseDate}.${randomUUID().slice(0, 8)}`;

export async function publishDeskForecast(
  store: Pick<Store, 'points' | 'getForecast' | 'publishForecast'>,
  input: DeskForecastInput,
  by: { readonly actor: AuditActor; readonly name: string; readonly now: Date },
): Promise<PublishOutcome> {
  const series = findSeries(input.seriesId)!;
  const today = isoDateOf(by.now);
  const points = await store.points(series.id, { from: addDays(today, -LOOKBACK_DAYS), to: today });
  const base = points.at(-1) ?? null;
  const band = base ? flatBandPct(points, series.frequency, input.horizon, base.date) : 0;
  const againstBase = checkAgainstBase(input, base, band);
  if (againstBase) return { ok: false, status: againstBase.code === 'no_price' ? 409 : 400, refusal: againstBase };
  if (input.supersedes !== null) {
    const refused = checkSupersedes(await store.getForecast(input.supersedes), input, today);
    if (refused) return { ok: false, status: 409, refusal: refused };
  }
  const made = { base: base!, flatBandPct: band, by: { kind: 'desk' as const, uid: by.actor.uid, name: by.name }, now: by.now };
  const forecast = deskForecastOf(input, { ...made, id: deskForecastId({ seriesId: series.id, horizon: input.horizon, baseDate: base!.date }) });
  const result = await store.publishForecast(forecast, { actor: by.actor, now: by.now });
  // A random id taken already is a retry of the very same request at most: it stands.
  if (result.kind === 'exists') return { ok: false, status: 409, refusal: { code: 'not_correctable', field: 'id', message: 'This forecast was published already.' } };
  return { ok: true, forecast, auditId: result.entry.id };
}
